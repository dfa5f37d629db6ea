// Wilcoxon's signed-rank test and the one-sample Hodges-Lehmann interval (stats/signed_rank.h) against
// values worked out by hand, a brute-force enumeration of the sign flips, and their coverage.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "stats/signed_rank.h"

namespace {

using gbx::signed_rank_cdf;
using gbx::signed_rank_p_value;
using gbx::walsh_interval;

TEST(SignedRank, NullDistributionOfThreeRanks) {
  // Subsets of {1, 2, 3}: sums 0, 1, 2, 3, 3, 4, 5, 6.
  const std::vector<double> expected = {1 / 8.0, 2 / 8.0, 3 / 8.0, 5 / 8.0, 6 / 8.0, 7 / 8.0, 1.0};
  const std::vector<double> cdf = signed_rank_cdf(3);
  ASSERT_EQ(cdf.size(), expected.size());
  for (std::size_t t = 0; t < cdf.size(); ++t) EXPECT_DOUBLE_EQ(cdf[t], expected[t]) << t;
  EXPECT_EQ(signed_rank_cdf(0), std::vector<double>{1.0});
}

TEST(SignedRank, TheTabulatedCriticalValueOfEightPairs) {
  // Wilcoxon's table: n = 8, two-sided 5%, reject for T <= 3 (P(T+ <= 3) = 5/256, P(T+ <= 4) = 7/256).
  const std::vector<double> cdf = signed_rank_cdf(8);
  EXPECT_DOUBLE_EQ(cdf[3], 5.0 / 256.0);
  EXPECT_DOUBLE_EQ(cdf[4], 7.0 / 256.0);
}

TEST(SignedRank, PValuesByHand) {
  // Ranks 1..4, only rank 1 negative: T+ = 9 of 10; |T+ - 5| >= 4 for T+ in {0, 1, 9, 10}: 4 of 16.
  EXPECT_DOUBLE_EQ(*signed_rank_p_value({1.0, 2.0, 3.0, -0.5}), 0.25);
  // Ties: |x| = 1, 1, 2 have mid-ranks 1.5, 1.5, 3; S = 1.5 - 1.5 + 3 = 3; of the 8 flips only the two
  // with S = 0 are less extreme: 6 of 8.
  EXPECT_DOUBLE_EQ(*signed_rank_p_value({1.0, -1.0, 2.0}), 0.75);
  // A zero is ranked (rank 1) but carries no sign: ranks 2 and 3 both positive, 2 of the 4 flips as
  // extreme.
  EXPECT_DOUBLE_EQ(*signed_rank_p_value({0.0, 1.0, 2.0}), 0.5);
  EXPECT_DOUBLE_EQ(*signed_rank_p_value({0.0, 0.0}), 1.0);
  // All of five positive: the floor 2 / 2^5.
  EXPECT_DOUBLE_EQ(*signed_rank_p_value({0.1, 0.2, 0.3, 0.4, 0.5}), 2.0 / 32.0);
  EXPECT_FALSE(signed_rank_p_value({}));
  EXPECT_FALSE(signed_rank_p_value({1.0, NAN}));
  EXPECT_FALSE(signed_rank_p_value(std::vector<double>(61, 1.0)));
}

// The p-value of distinct values against all 2^K sign flips of their ranks.
double brute_force_p(const std::vector<double>& x) {
  const std::size_t k = x.size();
  std::vector<double> rank(k);
  for (std::size_t i = 0; i < k; ++i) {
    rank[i] = 1;
    for (std::size_t j = 0; j < k; ++j) rank[i] += std::fabs(x[j]) < std::fabs(x[i]) ? 1 : 0;
  }
  double observed = 0;
  for (std::size_t i = 0; i < k; ++i) observed += x[i] > 0 ? rank[i] : -rank[i];
  std::size_t extreme = 0;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << k); ++mask) {
    double s = 0;
    for (std::size_t i = 0; i < k; ++i) s += ((mask >> i) & 1) ? rank[i] : -rank[i];
    if (std::fabs(s) >= std::fabs(observed) - 1e-9) ++extreme;
  }
  return static_cast<double>(extreme) / static_cast<double>(std::uint64_t{1} << k);
}

TEST(SignedRank, PValueMatchesTheEnumerationOfSignFlips) {
  std::mt19937_64 engine(5);
  std::normal_distribution<double> normal(0.3, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> x(2 + trial % 11);
    for (double& v : x) v = normal(engine);
    EXPECT_NEAR(*signed_rank_p_value(x), brute_force_p(x), 1e-12) << trial;
  }
}

TEST(WalshInterval, BoundsByHand) {
  // 1..6: 2^-6 <= 2.5% < 2 / 2^6, so c = 1: the extreme Walsh averages, 1 and 6; the centre 3.5.
  auto six = walsh_interval({3, 1, 6, 2, 5, 4}, 0.025);
  ASSERT_TRUE(six && six->bounded);
  EXPECT_DOUBLE_EQ(six->estimate, 3.5);
  EXPECT_DOUBLE_EQ(six->lower, 1.0);
  EXPECT_DOUBLE_EQ(six->upper, 6.0);
  EXPECT_DOUBLE_EQ(six->achieved_one_sided, 1.0 / 64.0);
  // 1..8 at 2.5%: c = 4, the 4th smallest Walsh average (1, 1.5, 2, 2) and the 4th largest (7).
  auto eight = walsh_interval({1, 2, 3, 4, 5, 6, 7, 8}, 0.025);
  ASSERT_TRUE(eight && eight->bounded);
  EXPECT_DOUBLE_EQ(eight->lower, 2.0);
  EXPECT_DOUBLE_EQ(eight->upper, 7.0);
  EXPECT_DOUBLE_EQ(eight->achieved_one_sided, 5.0 / 256.0);
  // Five pairs cannot reach 2.5% on a side (2^-5 = 3.1%): unbounded.
  auto five = walsh_interval({1, 2, 3, 4, 5}, 0.025);
  ASSERT_TRUE(five);
  EXPECT_FALSE(five->bounded);
  EXPECT_TRUE(std::isinf(five->lower) && five->lower < 0 && std::isinf(five->upper));
  EXPECT_FALSE(walsh_interval({1, 2}, 0.0));
  EXPECT_FALSE(walsh_interval({1, 2}, 0.5));
  EXPECT_FALSE(walsh_interval({}, 0.025));
}

TEST(WalshInterval, CoversTheCentreOfSymmetricHeavyTailedData) {
  // Student t with 2 degrees of freedom (infinite variance) about 0.01, 15 values: each side misses
  // with probability at most 2.5%.
  std::mt19937_64 engine(17);
  std::student_t_distribution<double> heavy(2.0);
  int below = 0, above = 0;
  const int trials = 4000;
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<double> x(15);
    for (double& v : x) v = 0.01 + 0.01 * heavy(engine);
    const auto interval = walsh_interval(x, 0.025);
    below += interval->upper < 0.01 ? 1 : 0;
    above += interval->lower > 0.01 ? 1 : 0;
  }
  EXPECT_LE(below, 0.025 * trials + 3 * std::sqrt(0.025 * trials));
  EXPECT_LE(above, 0.025 * trials + 3 * std::sqrt(0.025 * trials));
  EXPECT_GE(below + above, 0.02 * trials);  // and the level is used, not wasted (exact: 2 x 2.2%)
}

TEST(WalshInterval, OneWildValueMovesItLittle) {
  // From 12 values on, a 95% bound sits past the K Walsh averages that hold one wild value (c > K);
  // at 15 it is c = 26.
  std::vector<double> x = {0.010, 0.012, 0.008, 0.011, 0.009, 0.010, 0.013, 0.007,
                           0.010, 0.011, 0.009, 0.012, 0.008, 0.010, 0.011};
  const auto calm = walsh_interval(x, 0.025);
  x[0] = -0.5;  // a process 40% faster for all its blocks
  const auto wild = walsh_interval(x, 0.025);
  EXPECT_NEAR(wild->estimate, calm->estimate, 0.002);
  EXPECT_GT(wild->lower, 0.0);  // still excludes no change, as a t interval on these would not
}

}  // namespace

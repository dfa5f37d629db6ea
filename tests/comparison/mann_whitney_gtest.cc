// mann_whitney: exact p-values against the permutation law counted by hand, the normal approximation
// against scipy.stats.mannwhitneyu (make_reference.py) and against the formula worked out here.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/distributions/normal.hpp>

#include "stats/comparison.h"

namespace gbx {
namespace {

TEST(MannWhitney, ThreeAgainstThreeSeparatedIsTwoOfTwenty) {
  // All C(6, 3) = 20 arrangements are equally likely; U = 9 and U = 0 are one each.
  const MannWhitney result = mann_whitney({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(result.exact);
  EXPECT_DOUBLE_EQ(result.u, 9.0);
  EXPECT_NEAR(result.p_value, 2.0 / 20.0, 1e-15);
  // Reversed: U = 0, the same two-sided p.
  const MannWhitney reversed = mann_whitney({4, 5, 6}, {1, 2, 3});
  EXPECT_DOUBLE_EQ(reversed.u, 0.0);
  EXPECT_NEAR(reversed.p_value, 0.1, 1e-15);
}

TEST(MannWhitney, FiveAgainstFiveSeparatedIsTwoOf252) {
  const MannWhitney result = mann_whitney({10, 11, 12, 13, 14}, {20, 21, 22, 23, 24});
  EXPECT_TRUE(result.exact);
  EXPECT_DOUBLE_EQ(result.u, 25.0);
  EXPECT_NEAR(result.p_value, 2.0 / 252.0, 1e-15);
}

TEST(MannWhitney, InterleavedThreeAgainstThreeByEnumeration) {
  // base {1, 3, 5}, cand {2, 4, 6}: U = 1 + 2 + 3 = 6. The 20 arrangements of three against three give
  // U = 0..9 with counts 1 1 2 3 3 3 3 2 1 1 (the coefficients of the Gaussian binomial [6 3]_q), so
  // P(U >= 6) = (3 + 2 + 1 + 1) / 20 = 7/20 and the two-sided p is 0.7.
  const MannWhitney result = mann_whitney({1, 3, 5}, {2, 4, 6});
  EXPECT_TRUE(result.exact);
  EXPECT_DOUBLE_EQ(result.u, 6.0);
  EXPECT_NEAR(result.p_value, 0.7, 1e-15);
  // base {1, 4, 5}, cand {2, 3, 6}: U = 1 + 1 + 3 = 5, P(U >= 5) = (3 + 3 + 2 + 1 + 1) / 20 = 1/2, doubled: 1.
  const MannWhitney middle = mann_whitney({1, 4, 5}, {2, 3, 6});
  EXPECT_DOUBLE_EQ(middle.u, 5.0);
  EXPECT_DOUBLE_EQ(middle.p_value, 1.0);
}

TEST(MannWhitney, ExactMatchesBruteForceEnumeration) {
  // All C(9, 4) = 126 ways to give 4 of the ranks 0..8 to base (unequal sizes, both orders): the
  // two-sided p of each is 2 P(U' >= max(U, 20 - U)) over the 126, counted here directly.
  constexpr int kTotal = 9;
  std::vector<int> u_of_mask;
  std::vector<std::vector<double>> bases;
  std::vector<std::vector<double>> cands;
  for (int mask = 0; mask < (1 << kTotal); ++mask) {
    if (__builtin_popcount(static_cast<unsigned>(mask)) != 4) continue;
    std::vector<double> base;
    std::vector<double> cand;
    for (int rank = 0; rank < kTotal; ++rank) ((mask >> rank) & 1 ? base : cand).push_back(rank);
    int u = 0;
    for (double c : cand) {
      for (double b : base) u += c > b ? 1 : 0;
    }
    u_of_mask.push_back(u);
    bases.push_back(base);
    cands.push_back(cand);
  }
  ASSERT_EQ(u_of_mask.size(), 126u);
  for (std::size_t i = 0; i < u_of_mask.size(); ++i) {
    const int extreme = std::max(u_of_mask[i], 20 - u_of_mask[i]);
    int at_least = 0;
    for (int u : u_of_mask) at_least += u >= extreme ? 1 : 0;
    const double expected = std::min(1.0, 2.0 * at_least / 126.0);
    const MannWhitney forward = mann_whitney(bases[i], cands[i]);
    ASSERT_TRUE(forward.exact);
    EXPECT_DOUBLE_EQ(forward.u, u_of_mask[i]);
    EXPECT_NEAR(forward.p_value, expected, 1e-14) << "U = " << u_of_mask[i];
    const MannWhitney backward = mann_whitney(cands[i], bases[i]);  // 5 against 4
    EXPECT_DOUBLE_EQ(backward.u, 20 - u_of_mask[i]);
    EXPECT_NEAR(backward.p_value, expected, 1e-14);
  }
}

TEST(MannWhitney, ExactMatchesScipy) {
  // make_reference.py "exact": n1 = 6, n2 = 8, no ties.
  const MannWhitney result = mann_whitney({1.1, 2.3, 3.7, 4.2, 6.5, 8.8}, {3.9, 5.1, 6.9, 7.4, 9.3, 9.9, 10.4, 12.0});
  EXPECT_TRUE(result.exact);
  EXPECT_DOUBLE_EQ(result.u, 41.0);
  EXPECT_NEAR(result.p_value, 0.029304029304029304, 1e-12);
}

TEST(MannWhitney, TiesUseTheCorrectedNormalApproximation) {
  const std::vector<double> base{1, 2, 2, 3, 3, 3, 4, 5};
  const std::vector<double> cand{3, 4, 4, 5, 5, 6, 6, 7, 7};
  const MannWhitney result = mann_whitney(base, cand);
  EXPECT_FALSE(result.exact);  // ties rule the exact law out even for small n
  // U: cand 3 beats 3 and ties 3 (4.5), each 4 gives 6.5, each 5 gives 7.5, each 6 and 7 gives 8.
  EXPECT_DOUBLE_EQ(result.u, 4.5 + 2 * 6.5 + 2 * 7.5 + 2 * 8 + 2 * 8);
  // Pooled tie groups 2, 4, 3, 3, 2, 2 give sum(t^3 - t) = 6 + 60 + 24 + 24 + 6 + 6 = 126; N = 17.
  const double variance = 72.0 / 12.0 * (18.0 - 126.0 / (17.0 * 16.0));
  const double z = (64.5 - 36.0 - 0.5) / std::sqrt(variance);
  const double by_hand = 2.0 * boost::math::cdf(boost::math::complement(boost::math::normal(), z));
  EXPECT_NEAR(result.p_value, by_hand, 1e-14);
  EXPECT_NEAR(result.p_value, 0.006340074742489072, 1e-12);  // scipy, make_reference.py "ties"
  // Without the tie correction the variance would be 6 * 18 and p larger: the correction matters here.
  const double uncorrected =
      2.0 * boost::math::cdf(boost::math::complement(boost::math::normal(), 28.0 / std::sqrt(108.0)));
  EXPECT_GT(uncorrected - result.p_value, 1e-4);
}

TEST(MannWhitney, PastTheExactThresholdMatchesScipy) {
  std::vector<double> base;
  std::vector<double> cand;
  for (int i = 0; i < 42; i += 2) {
    base.push_back(i);
    cand.push_back(i + 3.5);
  }
  const MannWhitney result = mann_whitney(base, cand);
  EXPECT_FALSE(result.exact);  // 21 per side > kMannWhitneyExactMinSide
  EXPECT_DOUBLE_EQ(result.u, 251.0);
  EXPECT_NEAR(result.p_value, 0.4504456875848739, 1e-12);  // make_reference.py "large"
}

TEST(MannWhitney, ExactAtTheThresholdMatchesScipy) {
  // 20 against 125 (n1 n2 = 2500), no ties: still exact, far into the tail.
  std::vector<double> base;
  std::vector<double> cand;
  for (int i = 0; i < 20; ++i) base.push_back(7.0 * i + 0.5);
  for (int i = 0; i < 125; ++i) cand.push_back(0.5 * i + 0.25);
  const MannWhitney result = mann_whitney(base, cand);
  EXPECT_TRUE(result.exact);
  EXPECT_DOUBLE_EQ(result.u, 612.0);
  EXPECT_NEAR(result.p_value, 0.00016503561727972019, 1e-9 * 0.00016503561727972019);  // "threshold"
  // The normal approximation is close, not equal.
  const double z = (2500.0 - 612.0 - 1250.0 - 0.5) / std::sqrt(2500.0 * 146.0 / 12.0);
  const double normal = 2.0 * boost::math::cdf(boost::math::complement(boost::math::normal(), z));
  EXPECT_NEAR(result.p_value, normal, 2e-4);
  EXPECT_NE(result.p_value, normal);
  // One more sample on the large side passes the threshold: the normal approximation takes over.
  cand.push_back(1000.25);
  EXPECT_FALSE(mann_whitney(base, cand).exact);
}

TEST(MannWhitney, EmptyAndConstantGiveOne) {
  EXPECT_DOUBLE_EQ(mann_whitney({}, {1, 2}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney({1, 2}, {}).p_value, 1.0);
  EXPECT_FALSE(mann_whitney({}, {}).exact);
  const MannWhitney constant = mann_whitney({2, 2, 2}, {2, 2});
  EXPECT_DOUBLE_EQ(constant.u, 3.0);
  EXPECT_DOUBLE_EQ(constant.p_value, 1.0);
}

}  // namespace
}  // namespace gbx

// stats/weighted_pairs.h against hand-computed values: each pair's variance from its block pairs, the
// Paule-Mandel tau^2, the guards, and the two intervals.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/weighted_pairs.h"

namespace {

using gbx::PairBlockLogRatios;
using gbx::WeightedPairs;

constexpr double kPi = 3.14159265358979323846;

TEST(PairVariances, OwnSpreadAboutEachOrdersMedianByHand) {
  // Candidate first: 0.01, 0.02 (median 0.015); base first: 0.03, 0.04 (0.035). Residuals +/-0.005, so
  // sigma = 1.4826 x 0.005. One pair: the pooled sigma^2 is its own, and shrinking leaves it. Two
  // medians of two (means): v = sigma^2 / 4 (1/2 + 1/2) = sigma^2 / 4.
  const double sigma = 1.4826 * 0.005;
  const auto v = gbx::pair_variances({{{0.01, 0.03, 0.02, 0.04}, {true, false, true, false}}});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NEAR(v[0], sigma * sigma / 4.0, 1e-15);
}

TEST(PairVariances, SmallPairsTakeThePooledSpreadAndLargeOnesShrinkTowardsIt) {
  // Pair A: 6 block pairs, 3 of each order, residuals -0.01, 0, 0.01 in each: sigma_A = 1.4826 x 0.01.
  // Pair B: 3 block pairs, one order, residuals -0.03, 0, 0.03: sigma_B = 1.4826 x 0.03.
  // Pooled: the median of the two sigma^2, their mean. Pair C: 2 block pairs, takes the pooled.
  const double a2 = std::pow(1.4826 * 0.01, 2);
  const double b2 = std::pow(1.4826 * 0.03, 2);
  const double pooled = (a2 + b2) / 2.0;
  const std::vector<PairBlockLogRatios> pairs = {
      {{0.0, 0.1, 0.01, 0.11, 0.02, 0.12}, {true, false, true, false, true, false}},
      {{0.0, 0.03, 0.06}, {true, true, true}},
      {{0.05, 0.07}, {true, false}}};
  const auto v = gbx::pair_variances(pairs);
  ASSERT_EQ(v.size(), 3u);
  // A: df = 6 - 2 = 4; (4 a2 + 4 pooled) / 8; medians of 3 on each side: sigma^2 / 4 (pi/2 / 3 x 2).
  EXPECT_NEAR(v[0], (4.0 * a2 + 4.0 * pooled) / 8.0 / 4.0 * (kPi / 2.0 / 3.0 * 2.0), 1e-15);
  // B: one order, df = 2; (2 b2 + 4 pooled) / 6; a median of 3: sigma^2 (pi/2) / 3.
  EXPECT_NEAR(v[1], (2.0 * b2 + 4.0 * pooled) / 6.0 * (kPi / 2.0) / 3.0, 1e-15);
  // C: pooled; two medians of one: pooled / 4 (1 + 1).
  EXPECT_NEAR(v[2], pooled / 2.0, 1e-15);
}

TEST(PairVariances, MalformedPairsGiveNothing) {
  EXPECT_TRUE(gbx::pair_variances({{{}, {}}}).empty());
  EXPECT_TRUE(gbx::pair_variances({{{0.1, 0.2}, {true}}}).empty());
}

TEST(PauleMandel, ZeroWhenThePairsAgreeWithinTheirVariances) {
  // x = 0, 0.1, v = 0.01 each: Q(0) = 100 (0.05^2 + 0.05^2) = 0.5 <= K - 1 = 1.
  EXPECT_EQ(gbx::paule_mandel_tau2({0.0, 0.1}, {0.01, 0.01}), 0.0);
}

TEST(PauleMandel, TheRootOfQEqualsKMinusOneByHand) {
  // x = 0, 0.3, v = 0.01 each: Q(t) = 2 x 0.15^2 / (0.01 + t) = 1 at t = 0.045 - 0.01 = 0.035.
  const auto tau2 = gbx::paule_mandel_tau2({0.0, 0.3}, {0.01, 0.01});
  ASSERT_TRUE(tau2);
  EXPECT_NEAR(*tau2, 0.035, 1e-12);
  EXPECT_FALSE(gbx::paule_mandel_tau2({0.0}, {0.01}));
  EXPECT_FALSE(gbx::paule_mandel_tau2({0.0, 0.1}, {0.01, 0.0}));
}

TEST(GuardedWeights, AFarPairIsPulledInAndATinyVarianceFloored) {
  // x: four pairs at 0 and one at 1; MAD 0, so the half-width is the band, log 1.005: the fifth is
  // pulled to 0.0049875. v: 1e-4 four times and 1e-9, floored at the median, 1e-4. Q(0) = 1e4 x
  // (4 x (0.0049875/5)^2 + (4 x 0.0049875/5)^2) = 0.199 <= 4: tau^2 = 0, equal weights.
  const double band = std::log(1.005);
  const auto w = gbx::guarded_weights({0.0, 0.0, 0.0, 0.0, 1.0}, {1e-4, 1e-4, 1e-4, 1e-4, 1e-9}, band);
  ASSERT_TRUE(w);
  EXPECT_NEAR(w->log_ratios[4], band, 1e-15);
  EXPECT_EQ(w->tau2, 0.0);
  for (double weight : w->weights) EXPECT_NEAR(weight, 1e4, 1e-9);
  EXPECT_NEAR(w->centre, band / 5.0, 1e-15);
}

TEST(WeightedSignFlip, EqualWeightsGiveHartigansSubsetMeans) {
  // x = 0.01, 0.02, 0.04: subset means 0.01, 0.015, 0.02, 0.0233, 0.025, 0.03, 0.04. At 25%, c =
  // floor(0.25 x 8) = 2: [m_(2), m_(6)] = [0.015, 0.03].
  const WeightedPairs p{{0.01, 0.02, 0.04}, {1.0, 1.0, 1.0}, 0.0, 0.07 / 3.0};
  const auto i = gbx::weighted_sign_flip_interval(p, 0.25);
  ASSERT_TRUE(i);
  EXPECT_TRUE(i->bounded);
  EXPECT_NEAR(i->lower, 0.015, 1e-15);
  EXPECT_NEAR(i->upper, 0.03, 1e-15);
}

TEST(WeightedSignFlip, WeightsMoveTheSubsetMeans) {
  // Weights 1, 1, 2: subset means 0.01, 0.02, 0.04, 0.015, (0.01 + 0.08) / 3 = 0.03, (0.02 + 0.08) / 3
  // = 0.0333, (0.01 + 0.02 + 0.08) / 4 = 0.0275; sorted, the 2nd and 6th: 0.015 and 0.0333.
  const WeightedPairs p{{0.01, 0.02, 0.04}, {1.0, 1.0, 2.0}, 0.0, 0.11 / 4.0};
  const auto i = gbx::weighted_sign_flip_interval(p, 0.25);
  ASSERT_TRUE(i);
  EXPECT_NEAR(i->lower, 0.015, 1e-15);
  EXPECT_NEAR(i->upper, 0.1 / 3.0, 1e-15);
}

TEST(WeightedSignFlip, TooFewPairsForTheLevelAreUnbounded) {
  // 2^-3 = 12.5% > 2.5%: c = floor(0.025 x 8) = 0.
  const WeightedPairs p{{0.01, 0.02, 0.04}, {1.0, 1.0, 1.0}, 0.0, 0.07 / 3.0};
  const auto i = gbx::weighted_sign_flip_interval(p, 0.025);
  ASSERT_TRUE(i);
  EXPECT_FALSE(i->bounded);
  EXPECT_FALSE(gbx::weighted_sign_flip_interval(p, 0.5));
  EXPECT_FALSE(gbx::weighted_sign_flip_interval(WeightedPairs{{0.01}, {0.0}, 0.0, 0.01}, 0.25));
}

TEST(Hksj, TheWeightedSpreadOverKMinusOneByHand) {
  // x = 0, 0.3 with weights 1 / 0.045: centre 0.15, se^2 = (2 x 0.0225 / 0.045) / (1 x 2 / 0.045) =
  // 0.0225; t_{1, 0.975} = 12.7062.
  const WeightedPairs p{{0.0, 0.3}, {1.0 / 0.045, 1.0 / 0.045}, 0.035, 0.15};
  const auto i = gbx::hksj_interval(p, 0.025);
  ASSERT_TRUE(i);
  EXPECT_NEAR(i->lower, 0.15 - 12.706204736 * 0.15, 1e-8);
  EXPECT_NEAR(i->upper, 0.15 + 12.706204736 * 0.15, 1e-8);
}

}  // namespace

// median_ratio_interval: seeded determinism, the point ratio, and a known constant slowdown.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stats/comparison.h"
#include "tests/support/random_samples.h"

namespace gbx {
namespace {

using gbx_test::lognormal_samples;

TEST(MedianRatio, DeterministicWithASeed) {
  const std::vector<double> base = lognormal_samples(60, 0.03, 1);
  const std::vector<double> cand = lognormal_samples(80, 0.03, 2);
  const auto first = median_ratio_interval(base, cand);
  const auto second = median_ratio_interval(base, cand);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->lower, second->lower);
  EXPECT_EQ(first->upper, second->upper);
  EXPECT_EQ(first->seed, 0x5eedu);
  EXPECT_EQ(first->resamples, 10000u);
  EXPECT_EQ(first->method, "percentile-exact-median");
  EXPECT_DOUBLE_EQ(first->level, 0.95);
  const auto other_seed = median_ratio_interval(base, cand, 0.95, 10000, 7);
  ASSERT_TRUE(other_seed);
  EXPECT_NE(first->lower, other_seed->lower);                         // the seed is used
  EXPECT_NEAR(first->lower, other_seed->lower, 0.01 * first->ratio);  // ... and matters little
}

TEST(MedianRatio, IntervalContainsTheRatioOfMedians) {
  const std::vector<double> base{1.0, 1.2, 0.9, 1.1, 1.05};      // median 1.05
  const std::vector<double> cand{2.0, 2.6, 2.2, 2.1, 2.4, 1.9};  // median (2.1 + 2.2) / 2 = 2.15
  const auto interval = median_ratio_interval(base, cand);
  ASSERT_TRUE(interval);
  EXPECT_DOUBLE_EQ(interval->ratio, 2.15 / 1.05);
  EXPECT_LT(interval->lower, interval->ratio);
  EXPECT_GT(interval->upper, interval->ratio);
  // The bounds are ratios of resampled medians: within [min(cand)/max(base), max(cand)/min(base)].
  EXPECT_GE(interval->lower, 1.9 / 1.2);
  EXPECT_LE(interval->upper, 2.6 / 0.9);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const auto noisy =
        median_ratio_interval(lognormal_samples(40, 0.05, 100 + seed), lognormal_samples(40, 0.05, 200 + seed));
    ASSERT_TRUE(noisy);
    EXPECT_LE(noisy->lower, noisy->ratio);
    EXPECT_GE(noisy->upper, noisy->ratio);
  }
}

TEST(MedianRatio, ConstantSlowdownOfIdenticalNoise) {
  const std::vector<double> base = lognormal_samples(100, 0.02, 3);
  std::vector<double> cand = base;
  for (double& sample : cand) sample *= 1.05;
  const auto interval = median_ratio_interval(base, cand);
  ASSERT_TRUE(interval);
  EXPECT_NEAR(interval->ratio, 1.05, 1e-12);
  EXPECT_LT(interval->lower, 1.05);
  EXPECT_GT(interval->upper, 1.05);
  // Two independent medians of n = 100 at 2% noise: the interval is a few percent wide.
  EXPECT_GT(interval->lower, 1.0);
  EXPECT_LT(interval->upper, 1.10);
}

TEST(MedianRatio, LevelWidensTheInterval) {
  const std::vector<double> base = lognormal_samples(50, 0.05, 4);
  const std::vector<double> cand = lognormal_samples(50, 0.05, 5);
  const auto narrow = median_ratio_interval(base, cand, 0.5);
  const auto wide = median_ratio_interval(base, cand, 0.99);
  ASSERT_TRUE(narrow && wide);
  EXPECT_LT(wide->lower, narrow->lower);
  EXPECT_GT(wide->upper, narrow->upper);
}

TEST(MedianRatio, AbsentWhenNothingCanBeSaid) {
  EXPECT_FALSE(median_ratio_interval({}, {1.0}));
  EXPECT_FALSE(median_ratio_interval({1.0}, {}));
  EXPECT_FALSE(median_ratio_interval({-1.0, 0.0, 0.5}, {1.0}));  // base median 0
  EXPECT_FALSE(median_ratio_interval({1.0}, {-2.0, -1.0}));      // cand median < 0
  EXPECT_FALSE(median_ratio_interval({1.0, std::nan("")}, {1.0}));
  EXPECT_FALSE(median_ratio_interval({1.0}, {1.0}, 1.0));
  EXPECT_FALSE(median_ratio_interval({1.0}, {1.0}, 0.95, 0));
  // A single sample each is a degenerate but valid interval.
  const auto single = median_ratio_interval({2.0}, {3.0});
  ASSERT_TRUE(single);
  EXPECT_DOUBLE_EQ(single->lower, 1.5);
  EXPECT_DOUBLE_EQ(single->upper, 1.5);
}

}  // namespace
}  // namespace gbx

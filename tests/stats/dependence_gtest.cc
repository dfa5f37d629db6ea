// Hints of non-independence (slow first samples, lag-1 autocorrelation, drift) on constructed sequences.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stats/outliers.h"

namespace gbx {
namespace {

// 1.00, 1.01, ..., 1.04 repeated: a tight, steady sequence.
std::vector<double> steady(std::size_t n) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < n; ++i) samples.push_back(1.0 + 0.01 * static_cast<double>(i % 5));
  return samples;
}

TEST(SlowStart, FlagsASlowHead) {
  // n = 30: head k = 3, median 1.8; the rest (27 steady samples) has median 1.02 and p90 1.04.
  std::vector<double> samples{2.0, 1.8, 1.5};
  for (double value : steady(27)) samples.push_back(value);
  const std::optional<SlowStart> result = slow_start(samples);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->head_count, 3u);
  EXPECT_DOUBLE_EQ(result->head_median, 1.8);
  EXPECT_DOUBLE_EQ(result->rest_median, 1.02);
  EXPECT_DOUBLE_EQ(result->rest_p90, 1.04);
  EXPECT_NEAR(*result->relative_excess, 1.8 / 1.02 - 1.0, 1e-12);
  EXPECT_TRUE(result->flagged);
}

TEST(SlowStart, IgnoresSmallOrNoiseSizedExcess) {
  // Head above the rest's p90 but only 2.9% above its median: not flagged.
  std::vector<double> samples{1.05, 1.05, 1.05};
  for (double value : steady(27)) samples.push_back(value);
  EXPECT_FALSE(slow_start(samples)->flagged);
  // n = 100: head k = 10. Steady throughout: not flagged.
  const std::optional<SlowStart> steady_result = slow_start(steady(100));
  ASSERT_TRUE(steady_result);
  EXPECT_EQ(steady_result->head_count, 10u);
  EXPECT_FALSE(steady_result->flagged);
  EXPECT_FALSE(slow_start(steady(5)));  // fewer than 2 k samples
}

TEST(Autocorrelation, HandComputedRamp) {
  // 1..5: mean 3, deviations -2 -1 0 1 2: sum of squares 10, lagged products 2 + 0 + 0 + 2 = 4, r1 = 0.4.
  // Threshold 3 / sqrt(5) = 1.342: five samples cannot show it.
  const std::optional<Autocorrelation> result = lag1_autocorrelation({1, 2, 3, 4, 5});
  ASSERT_TRUE(result);
  EXPECT_DOUBLE_EQ(result->lag1, 0.4);
  EXPECT_NEAR(result->threshold, 3.0 / std::sqrt(5.0), 1e-15);
  EXPECT_FALSE(result->flagged);
}

TEST(Autocorrelation, AlternatingSequenceIsNegative) {
  // +1 -1 +1 ... (20): mean 0, squares 20, products -19: r1 = -0.95 < -3 / sqrt(20) = -0.671.
  std::vector<double> samples(20);
  for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = i % 2 == 0 ? 1.0 : -1.0;
  const std::optional<Autocorrelation> result = lag1_autocorrelation(samples);
  ASSERT_TRUE(result);
  EXPECT_DOUBLE_EQ(result->lag1, -0.95);
  EXPECT_TRUE(result->flagged);
}

TEST(Autocorrelation, SlowWanderIsFlaggedIndependentNoiseIsNot) {
  std::mt19937_64 engine(7);
  std::uniform_real_distribution<double> noise(-1.0, 1.0);
  std::vector<double> independent;
  std::vector<double> wander;  // AR(1) with coefficient 0.8: r1 about 0.8
  double level = 0.0;
  for (int i = 0; i < 1000; ++i) {
    independent.push_back(10.0 + noise(engine));
    level = 0.8 * level + noise(engine);
    wander.push_back(10.0 + level);
  }
  const std::optional<Autocorrelation> quiet = lag1_autocorrelation(independent);
  const std::optional<Autocorrelation> loud = lag1_autocorrelation(wander);
  ASSERT_TRUE(quiet && loud);
  std::printf("lag-1 autocorrelation: independent %.4f, AR(0.8) %.4f, threshold %.4f\n", quiet->lag1, loud->lag1,
              quiet->threshold);
  EXPECT_FALSE(quiet->flagged);
  EXPECT_TRUE(loud->flagged);
  EXPECT_NEAR(loud->lag1, 0.8, 0.1);
}

TEST(Autocorrelation, AbsentWhenUndefined) {
  EXPECT_FALSE(lag1_autocorrelation({1, 2}));
  EXPECT_FALSE(lag1_autocorrelation({4, 4, 4, 4}));  // no variance
}

TEST(Drift, StepBetweenHalvesIsFlaggedWithItsSize) {
  // 50 steady samples around 1.02, then 50 around 1.2 * 1.02: halves' median intervals are disjoint.
  std::vector<double> samples = steady(50);
  for (double value : steady(50)) samples.push_back(1.2 * value);
  const std::optional<Drift> result = drift(samples);
  ASSERT_TRUE(result);
  EXPECT_DOUBLE_EQ(result->first_half_median, 1.02);
  EXPECT_DOUBLE_EQ(result->second_half_median, 1.2 * 1.02);
  EXPECT_NEAR(*result->relative_change, 0.2, 1e-12);
  EXPECT_TRUE(result->flagged);
}

TEST(Drift, SteadySequenceIsNotFlagged) {
  const std::optional<Drift> result = drift(steady(101));  // the middle sample goes to the second half
  ASSERT_TRUE(result);
  EXPECT_EQ(result->relative_change, 0.0);
  EXPECT_FALSE(result->flagged);
  EXPECT_LE(result->first_half_interval.lower, result->second_half_interval.upper);
  EXPECT_FALSE(drift({1, 2, 3}));
}

TEST(Drift, ShortHalvesReportMinToMaxButDoNotFlag) {
  // Halves {1, 2} and {3, 4}: a median interval of 2 samples is [min, max] with coverage
  // 1 - 2 * 0.5^2 = 0.5, too little to call [1, 2] and [3, 4] a drift.
  const std::optional<Drift> result = drift({1, 2, 3, 4});
  ASSERT_TRUE(result);
  EXPECT_EQ(result->first_half_interval.lower, 1.0);
  EXPECT_EQ(result->first_half_interval.upper, 2.0);
  EXPECT_DOUBLE_EQ(result->first_half_interval.level, 0.5);
  EXPECT_NE(result->first_half_interval.method.find("too few"), std::string::npos);
  EXPECT_DOUBLE_EQ(*result->relative_change, 3.5 / 1.5 - 1.0);
  EXPECT_FALSE(result->flagged);
}

}  // namespace
}  // namespace gbx

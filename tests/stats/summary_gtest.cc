// The mean, the variance, summary statistics and type 7 quantiles against values computed by hand.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "stats/statistics.h"

namespace gbx {
namespace {

TEST(Quantile, Type7InterpolatesBetweenOrderStatistics) {
  // {1, 2, 3, 4}, q = 0.25: h = (4 - 1) * 0.25 = 0.75, so 1 + 0.75 * (2 - 1) = 1.75 (numpy agrees).
  EXPECT_DOUBLE_EQ(*quantile({4, 1, 3, 2}, 0.25), 1.75);
  // {10, 20, 30, 40, 50}, q = 0.1: h = 0.4, so 10 + 0.4 * 10 = 14.
  EXPECT_DOUBLE_EQ(*quantile({50, 40, 30, 20, 10}, 0.1), 14.0);
  // Odd count: the median is the middle value; even count: the mean of the two middle values.
  EXPECT_DOUBLE_EQ(*median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(*median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(*quantile({4, 1, 3, 2}, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(*quantile({4, 1, 3, 2}, 1.0), 4.0);
  EXPECT_DOUBLE_EQ(*quantile({7}, 0.3), 7.0);
  // Ties give the tied value exactly, not a rounded interpolation.
  EXPECT_EQ(*quantile({0.1, 0.1, 0.1, 0.1}, 0.37), 0.1);
}

TEST(Quantile, AbsentWhenItCannotBeComputed) {
  EXPECT_FALSE(quantile({}, 0.5));
  EXPECT_FALSE(quantile({1, std::numeric_limits<double>::quiet_NaN()}, 0.5));
  EXPECT_FALSE(quantile({1, std::numeric_limits<double>::infinity()}, 0.5));
  EXPECT_FALSE(quantile({1, 2}, 1.5));
  EXPECT_FALSE(quantile({1, 2}, -0.1));
}

TEST(Mean, HandComputed) {
  // (5 + 2 + 9 + 4 + 7 + 4 + 5 + 4) / 8 = 40 / 8 = 5; (0.5 + 1.5 + 4) / 3 = 2.
  EXPECT_EQ(*mean({5, 2, 9, 4, 7, 4, 5, 4}), 5.0);
  EXPECT_EQ(*mean({0.5, 1.5, 4.0}), 2.0);
  EXPECT_EQ(*mean({-3.0}), -3.0);
}

TEST(Variance, HandComputedWithNMinusOne) {
  // {5, 2, 9, 4, 7, 4, 5, 4}: squared deviations about 5 are 0 9 16 1 4 1 0 1 = 32, over n - 1 = 7.
  EXPECT_DOUBLE_EQ(*variance({5, 2, 9, 4, 7, 4, 5, 4}), 32.0 / 7.0);
  // {1, 3}: deviations -1, 1, so 2 / 1 = 2 (n would give 1).
  EXPECT_EQ(*variance({1, 3}), 2.0);
  EXPECT_EQ(*variance({2.5, 2.5, 2.5}), 0.0);
  // Close values far from 0: deviations -1, 0, 1 about 1e9 + 2, so exactly 1. One pass (the mean of
  // squares less the square of the mean) would lose it to cancellation.
  EXPECT_EQ(*variance({1e9 + 1, 1e9 + 2, 1e9 + 3}), 1.0);
}

TEST(MeanAndVariance, AbsentWhenTheyCannotBeComputed) {
  EXPECT_FALSE(mean({}));
  EXPECT_FALSE(mean({1.0, std::numeric_limits<double>::quiet_NaN()}));
  EXPECT_FALSE(mean({1.0, std::numeric_limits<double>::infinity()}));
  EXPECT_FALSE(variance({}));
  EXPECT_FALSE(variance({4.0}));  // one value has no spread
  EXPECT_FALSE(variance({1.0, 2.0, -std::numeric_limits<double>::infinity()}));
}

TEST(Summary, HandComputed) {
  // Sorted: 2 4 4 4 5 5 7 9. Mean 40 / 8 = 5. Squared deviations 9 1 1 1 0 0 4 16 = 32, so
  // stddev = sqrt(32 / 7) = 2.1380899353, CV = 2.1380899353 / 5 = 0.4276179871.
  // Median: h = 3.5, 4 + 0.5 * (5 - 4) = 4.5. p90: h = 6.3, 7 + 0.3 * (9 - 7) = 7.6.
  // p99: h = 6.93, 7 + 0.93 * 2 = 8.86.
  const std::optional<Summary> summary = summarize({5, 2, 9, 4, 7, 4, 5, 4});
  ASSERT_TRUE(summary);
  EXPECT_EQ(summary->count, 8u);
  EXPECT_DOUBLE_EQ(summary->mean, 5.0);
  ASSERT_TRUE(summary->stddev);
  EXPECT_NEAR(*summary->stddev, 2.1380899353, 1e-10);
  ASSERT_TRUE(summary->cv);
  EXPECT_NEAR(*summary->cv, 0.4276179871, 1e-10);
  EXPECT_DOUBLE_EQ(summary->min, 2.0);
  EXPECT_DOUBLE_EQ(summary->max, 9.0);
  EXPECT_DOUBLE_EQ(summary->median, 4.5);
  EXPECT_DOUBLE_EQ(summary->p90, 7.6);
  EXPECT_DOUBLE_EQ(summary->p99, 8.86);
}

TEST(Summary, OneSampleHasNoSpread) {
  const std::optional<Summary> summary = summarize({3e-6});
  ASSERT_TRUE(summary);
  EXPECT_EQ(summary->count, 1u);
  EXPECT_DOUBLE_EQ(summary->mean, 3e-6);
  EXPECT_FALSE(summary->stddev);
  EXPECT_FALSE(summary->cv);
  EXPECT_DOUBLE_EQ(summary->median, 3e-6);
  EXPECT_DOUBLE_EQ(summary->p99, 3e-6);
}

TEST(Summary, ZeroMeanHasNoCv) {
  // {-1, 1}: mean 0, stddev sqrt(2); stddev / 0 would be Inf.
  const std::optional<Summary> summary = summarize({-1, 1});
  ASSERT_TRUE(summary);
  EXPECT_DOUBLE_EQ(*summary->stddev, std::sqrt(2.0));
  EXPECT_FALSE(summary->cv);
}

TEST(Summary, ConstantDataHasZeroSpread) {
  const std::optional<Summary> summary = summarize({2.5, 2.5, 2.5});
  ASSERT_TRUE(summary);
  EXPECT_EQ(*summary->stddev, 0.0);
  EXPECT_EQ(*summary->cv, 0.0);
}

TEST(Summary, AbsentForEmptyOrNonFiniteInput) {
  EXPECT_FALSE(summarize({}));
  EXPECT_FALSE(summarize({1.0, std::numeric_limits<double>::quiet_NaN()}));
  EXPECT_FALSE(summarize({1.0, -std::numeric_limits<double>::infinity()}));
}

}  // namespace
}  // namespace gbx

// Distribution-free (binomial) intervals for quantiles, against ranks worked out by hand.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "stats/statistics.h"

namespace gbx {
namespace {

TEST(OrderStatisticRanks, MedianOfTen) {
  // K ~ Binomial(10, 1/2): P(K <= 0) = 1/1024, P(K <= 1) = 11/1024 = 0.0107 <= 0.025 < P(K <= 2) = 56/1024,
  // so l = 2; by symmetry u = 9. Coverage 1 - 2 * 11/1024 = 0.978515625.
  const std::optional<detail::OrderStatisticRanks> ranks = order_statistic_ranks(10, 0.5, 0.95);
  ASSERT_TRUE(ranks);
  EXPECT_EQ(ranks->lower, 2u);
  EXPECT_EQ(ranks->upper, 9u);
  EXPECT_NEAR(ranks->coverage, 1.0 - 22.0 / 1024.0, 1e-12);
  EXPECT_TRUE(ranks->reaches_level);
}

TEST(OrderStatisticRanks, MedianOfSixIsMinToMax) {
  // Binomial(6, 1/2): P(K = 0) = 1/64 = 0.0156 <= 0.025 < P(K <= 1) = 7/64: l = 1, u = 6, coverage 62/64.
  const std::optional<detail::OrderStatisticRanks> ranks = order_statistic_ranks(6, 0.5, 0.95);
  ASSERT_TRUE(ranks);
  EXPECT_EQ(ranks->lower, 1u);
  EXPECT_EQ(ranks->upper, 6u);
  EXPECT_NEAR(ranks->coverage, 62.0 / 64.0, 1e-12);
  EXPECT_TRUE(ranks->reaches_level);
}

TEST(OrderStatisticRanks, MedianOfFiveFallsShort) {
  // Binomial(5, 1/2): even [x_(1), x_(5)] misses with 2/32, so coverage 30/32 = 0.9375 < 0.95.
  const std::optional<detail::OrderStatisticRanks> ranks = order_statistic_ranks(5, 0.5, 0.95);
  ASSERT_TRUE(ranks);
  EXPECT_EQ(ranks->lower, 1u);
  EXPECT_EQ(ranks->upper, 5u);
  EXPECT_NEAR(ranks->coverage, 30.0 / 32.0, 1e-12);
  EXPECT_FALSE(ranks->reaches_level);
}

TEST(OrderStatisticRanks, P90OfTwentyTakesTheMaximumAndMovesTheLowerRank) {
  // Binomial(20, 0.9) at level 0.8 (tails of 0.1): P(K >= 20) = 0.9^20 = 0.1216 > 0.1, so no upper
  // rank meets its half: u = 20 and the lower tail may use 0.2 - 0.1216 = 0.0784.
  // P(K <= 15) = 0.04317 <= 0.0784 < P(K <= 16) = 0.13295, so l = 16, and the coverage is
  // 1 - 0.043174495 - 0.121576655 = 0.835248850.
  const std::optional<detail::OrderStatisticRanks> ranks = order_statistic_ranks(20, 0.9, 0.8);
  ASSERT_TRUE(ranks);
  EXPECT_EQ(ranks->lower, 16u);
  EXPECT_EQ(ranks->upper, 20u);
  EXPECT_NEAR(ranks->coverage, 0.835248850, 1e-9);
  EXPECT_TRUE(ranks->reaches_level);
}

TEST(OrderStatisticRanks, P99OfThirtyIsFarShort) {
  // [x_(1), x_(30)] covers the 99th percentile with 1 - 0.99^30 - 0.01^30 = 0.2603.
  const std::optional<detail::OrderStatisticRanks> ranks = order_statistic_ranks(30, 0.99, 0.95);
  ASSERT_TRUE(ranks);
  EXPECT_EQ(ranks->lower, 1u);
  EXPECT_EQ(ranks->upper, 30u);
  EXPECT_NEAR(ranks->coverage, 1.0 - std::pow(0.99, 30), 1e-12);
  EXPECT_FALSE(ranks->reaches_level);
}

TEST(OrderStatisticRanks, LargeCountsAreFastAndNearlySymmetric) {
  // Normal approximation for the median of 100,001: ranks 50,001 -/+ 1.96 * sqrt(n) / 2 = -/+ 310.
  const std::optional<detail::OrderStatisticRanks> ranks = order_statistic_ranks(100001, 0.5, 0.95);
  ASSERT_TRUE(ranks);
  EXPECT_NEAR(static_cast<double>(ranks->lower), 50001.0 - 310.0, 2.0);
  EXPECT_NEAR(static_cast<double>(ranks->upper), 50001.0 + 310.0, 2.0);
  EXPECT_GE(ranks->coverage, 0.95);
  EXPECT_LT(ranks->coverage, 0.952);
}

TEST(OrderStatisticRanks, AbsentOutsideTheirDomain) {
  EXPECT_FALSE(order_statistic_ranks(0, 0.5));
  EXPECT_FALSE(order_statistic_ranks(1, 0.5));
  EXPECT_FALSE(order_statistic_ranks(10, 0.0));
  EXPECT_FALSE(order_statistic_ranks(10, 1.0));
  EXPECT_FALSE(order_statistic_ranks(10, 0.5, 1.0));
}

TEST(QuantileInterval, PicksTheRankedSamples) {
  // Ten samples, sorted 1..10: the median's ranks (2, 9) give [2, 9]; the estimate is 5.5.
  const std::optional<detail::QuantileInterval> interval = quantile_interval({7, 3, 10, 1, 5, 9, 2, 8, 4, 6}, 0.5);
  ASSERT_TRUE(interval);
  EXPECT_EQ(interval->interval.lower, 2.0);
  EXPECT_EQ(interval->interval.upper, 9.0);
  EXPECT_DOUBLE_EQ(interval->estimate, 5.5);
  EXPECT_NEAR(interval->interval.level, 1.0 - 22.0 / 1024.0, 1e-12);
  EXPECT_EQ(interval->requested_level, 0.95);
  EXPECT_EQ(interval->interval.method, "order statistic");
}

TEST(QuantileInterval, ShortfallIsNamedInTheMethod) {
  std::vector<double> samples(30);
  for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = 1.0 + 0.01 * static_cast<double>(i);
  const std::optional<detail::QuantileInterval> p99 = quantile_interval(samples, 0.99);
  ASSERT_TRUE(p99);
  EXPECT_EQ(p99->interval.lower, 1.0);
  EXPECT_EQ(p99->interval.upper, samples.back());
  EXPECT_NE(p99->interval.method.find("too few samples"), std::string::npos);
  EXPECT_NEAR(p99->interval.level, 0.2603, 1e-4);
  EXPECT_FALSE(quantile_interval({1.0, std::nan("")}, 0.5));
}

}  // namespace
}  // namespace gbx

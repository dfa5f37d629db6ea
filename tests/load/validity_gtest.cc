// Validity as MLPerf LoadGen defines it (stats/queueing_validity.h, docs/load.md): the queries the p99
// needs at its confidence, the one-sided upper bound on it, the VALID verdict, and the peak search on
// a simulated clock against M/D/1 theory (Erlang's waiting-time distribution, stats/queueing.h).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "extensions/load/load_analysis.h"
#include "extensions/load/load_engine.h"
#include "stats/queueing.h"
#include "stats/queueing_validity.h"
#include "tests/load/simulated_pool.h"

namespace gbx {
namespace {

TEST(Validity, QueriesThePercentileNeeds) {
  // n >= ln(1 - c) / ln(p): 0.99^458 = 0.01003 > 0.01, 0.99^459 = 0.00993.
  EXPECT_EQ(queries_for_percentile(0.99, 0.99), std::optional<std::int64_t>(459));
  EXPECT_EQ(queries_for_percentile(0.99, 0.95), std::optional<std::int64_t>(299));
  EXPECT_EQ(queries_for_percentile(0.9, 0.99), std::optional<std::int64_t>(44));
  EXPECT_FALSE(queries_for_percentile(1.0, 0.99));
  EXPECT_FALSE(queries_for_percentile(0.99, 0.0));
}

// P(Binomial(n, p) <= k), summed directly.
double binomial_cdf(std::size_t size, double p, std::size_t k) {
  const auto n = static_cast<double>(size);
  double sum = 0.0;
  for (std::size_t count = 0; count <= k; ++count) {
    const auto j = static_cast<double>(count);
    sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) + j * std::log(p) +
                    (n - j) * std::log1p(-p));
  }
  return sum;
}

TEST(Validity, UpperBoundIsTheSmallestRankWithTheConfidence) {
  for (const std::size_t n : {459u, 1000u, 5000u}) {
    std::vector<double> sorted(n);
    for (std::size_t i = 0; i < n; ++i) sorted[i] = static_cast<double>(i + 1);  // x_(k) = k
    const auto bound = percentile_upper_bound(sorted, 0.99, 0.99);
    ASSERT_TRUE(bound) << n;
    const std::size_t k = bound->rank;
    EXPECT_EQ(bound->value, static_cast<double>(k));
    EXPECT_GE(binomial_cdf(n, 0.99, k - 1), 0.99) << n;
    EXPECT_LT(binomial_cdf(n, 0.99, k - 2), 0.99) << n;
  }
  EXPECT_EQ(percentile_upper_bound(std::vector<double>(459, 1.0), 0.99, 0.99)->rank, 459u);
  EXPECT_FALSE(percentile_upper_bound(std::vector<double>(458, 1.0), 0.99, 0.99));
}

TEST(Validity, VerdictAgainstTheBound) {
  std::vector<double> latencies(1000, 1e-3);
  latencies[999] = 5e-3;  // one slow query in a thousand: the p99's upper bound is still 1 ms
  const detail::LevelValidity valid = judge_validity(latencies, 2e-3, 0.99);
  EXPECT_EQ(valid.verdict, "VALID");
  EXPECT_EQ(valid.queries_needed, 459);
  EXPECT_TRUE(valid.enough_queries);
  for (std::size_t i = 980; i < 1000; ++i) latencies[i] = 5e-3;  // 2%: above the bound
  const detail::LevelValidity slow = judge_validity(latencies, 2e-3, 0.99);
  EXPECT_EQ(slow.verdict, "INVALID");
  EXPECT_NE(slow.reason.find("above the bound"), std::string::npos) << slow.reason;
  const detail::LevelValidity few = judge_validity(std::vector<double>(100, 1e-3), 2e-3, 0.99);
  EXPECT_EQ(few.verdict, "INVALID");
  EXPECT_FALSE(few.enough_queries);
  EXPECT_NE(few.reason.find("459"), std::string::npos) << few.reason;
  EXPECT_EQ(judge_validity(latencies, 0.0, 0.99).verdict, "");  // no bound: no verdict
  EXPECT_EQ(judge_validity(std::vector<double>(1000, 1e-3), 2e-3, 0.99, "saturated").verdict, "INVALID");
}

TEST(Validity, Md1WaitDistributionMatchesSimulation) {
  // Erlang's formula against the engine on a simulated M/D/1 queue, rho = 0.8: the simulated
  // 0.99-quantile of the response time within 3% of theory's.
  const double service = 1e-3;
  const double rate = 800.0;
  EXPECT_NEAR(*md1_wait_cdf(rate, service, 0.0), 0.2, 1e-12);  // P(no wait) = 1 - rho
  testing::SimulatedPool pool(1, testing::deterministic_service(service));
  const auto offsets = arrival_offsets(ArrivalProcess::poisson, rate, 400000, 17);
  const detail::OpenLoopLevel level =
      analyze_open_loop(run_open_loop(pool, 1, offsets, 2000, 1e12), rate, 1, 0.05, 0.05);
  const auto theory = md1_response_quantile(rate, service, 0.99);
  ASSERT_TRUE(theory && level.latency_p99);
  EXPECT_NEAR(level.latency_p99->estimate, *theory, 0.03 * *theory);
}

TEST(PeakSearch, FindsTheMd1BoundWithinFivePercent) {
  // D = 1 ms, p99 bound 8 ms: theory's highest rate is md1_peak_rate. The search bisects over open-loop
  // rates on the simulated clock, judging each step by the p99's 99% upper bound.
  const double service = 1e-3;
  const double bound = 8e-3;
  const auto theory = md1_peak_rate(service, 0.99, bound);
  ASSERT_TRUE(theory);
  EXPECT_GT(*theory, 500.0);
  EXPECT_LT(*theory, 1000.0);
  testing::SimulatedPool pool(1, testing::deterministic_service(service));
  LoadPlan plan;
  plan.concurrency = {1};
  plan.latency_bound_seconds = bound;
  plan.find_peak = true;
  plan.requests = 200000;
  plan.warmup_requests = 2000;
  plan.max_seconds_per_level = 1e12;
  plan.peak_resolution = 0.01;
  const detail::LoadResult result = run_load_sweep(pool, plan);
  ASSERT_TRUE(result.peak_search);
  const detail::PeakSearch& search = *result.peak_search;
  ASSERT_TRUE(search.peak_rate);
  EXPECT_NEAR(*search.peak_rate, *theory, 0.05 * *theory);
  EXPECT_LE(search.upper_rate - search.lower_rate, 0.01 * *result.capacity_rate + 1e-9);
  EXPECT_LE(search.lower_rate, search.upper_rate);
  EXPECT_FALSE(search.steps.empty());
  for (const auto& step : search.steps) EXPECT_FALSE(step.validity.verdict.empty());
}

}  // namespace
}  // namespace gbx

namespace gbx {
namespace {

TEST(PeakSearch, StopsWhereAStepCouldNotHaveItsQueries) {
  // A bound only an idle server meets (p99 of 1.02 ms for 1 ms of service) pushes the search down;
  // with 5 s a level, a step below (459 + 10) / 5 = 93.8/s could not have the queries its p99 needs:
  // it is not run, and the search says why instead of calling the rate INVALID.
  testing::SimulatedPool pool(1, testing::deterministic_service(1e-3));
  LoadPlan plan;
  plan.concurrency = {1};
  plan.latency_bound_seconds = 1.02e-3;
  plan.find_peak = true;
  plan.requests = 2000;
  plan.warmup_requests = 10;
  plan.max_seconds_per_level = 5.0;
  const detail::LoadResult result = run_load_sweep(pool, plan);
  ASSERT_TRUE(result.peak_search);
  const detail::PeakSearch& search = *result.peak_search;
  EXPECT_NE(search.stopped.find("could not have the 469 queries"), std::string::npos) << search.stopped;
  for (const auto& step : search.steps) EXPECT_GE(step.offered_rate, 469.0 / 5.0);
  EXPECT_FALSE(search.peak_rate);
  EXPECT_LT(search.upper_rate, 200.0);
}

}  // namespace
}  // namespace gbx

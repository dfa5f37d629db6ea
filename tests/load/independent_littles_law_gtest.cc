// Little's law checked against an L measured apart from the completions (docs/load.md, "An independent
// L"): the sampler's count of requests in flight. A planted accounting fault (a request counted twice,
// every tenth completion lost) leaves the old check, whose L comes from the same request times, agreeing
// with itself; the independent one catches it. A correct run passes both.
#include <gtest/gtest.h>

#include "extensions/load/load_analysis.h"
#include "extensions/load/load_engine.h"
#include "tests/load/simulated_pool.h"

namespace gbx {
namespace {

using testing::FaultyPool;
using testing::SimulatedPool;

// 3 workers, exponential service of 1 ms and 0.3 ms of harness between requests: the number in flight
// varies (L = 3 x 1 / 1.3 = 2.31), so the sampled mean is an estimate, not a constant.
detail::ClosedLoopLevel closed_level(ServicePool& pool) {
  const ClosedLoopRun run = run_closed_loop(pool, 3, 50, 20000, 1e12);
  return analyze_closed_loop(run, 3, 0.05);
}

SimulatedPool varied_pool() { return SimulatedPool(3, testing::exponential_service(0.001, 21), 0.0, 0.0003, 2e-4); }

TEST(IndependentLittlesLaw, CorrectRunPassesBothChecks) {
  SimulatedPool pool = varied_pool();
  const detail::ClosedLoopLevel level = closed_level(pool);
  ASSERT_TRUE(level.sampled_in_flight && level.independent_littles_law && level.littles_law);
  EXPECT_GT(level.sampled_in_flight->samples, 10000u);
  EXPECT_NEAR(level.sampled_in_flight->mean, 3.0 / 1.3, 0.03 * 3.0 / 1.3);
  EXPECT_GT(level.sampled_in_flight->standard_error, 0.0);
  EXPECT_FALSE(level.littles_law_violated);
  EXPECT_FALSE(level.independent_littles_law_violated) << level.independent_littles_law->relative_gap;
  EXPECT_LT(level.independent_littles_law->relative_gap, 0.02);
}

TEST(IndependentLittlesLaw, RequestCountedTwiceIsCaught) {
  SimulatedPool inner = varied_pool();
  FaultyPool pool(inner, FaultyPool::Fault::counted_twice);
  const detail::ClosedLoopLevel level = closed_level(pool);
  ASSERT_TRUE(level.littles_law && level.independent_littles_law);
  // The old check reads L from the same (doubled) requests: it agrees with itself.
  EXPECT_FALSE(level.littles_law_violated) << level.littles_law->relative_gap;
  // lambda doubles, W does not, the sampled L does not: lambda W = 2 L.
  EXPECT_TRUE(level.independent_littles_law_violated);
  EXPECT_NEAR(level.independent_littles_law->relative_gap, 0.5, 0.03);
}

TEST(IndependentLittlesLaw, LostCompletionIsCaught) {
  SimulatedPool inner = varied_pool();
  FaultyPool pool(inner, FaultyPool::Fault::every_tenth_lost);
  const detail::ClosedLoopLevel level = closed_level(pool);
  ASSERT_TRUE(level.littles_law && level.independent_littles_law);
  EXPECT_FALSE(level.littles_law_violated) << level.littles_law->relative_gap;
  EXPECT_TRUE(level.independent_littles_law_violated);
  EXPECT_NEAR(level.independent_littles_law->relative_gap, 0.1, 0.03);
}

TEST(IndependentLittlesLaw, TooFewReadingsAreNotJudged) {
  // 40 requests of 1 ms with readings every 10 ms on average: a handful, not enough to judge.
  SimulatedPool pool(1, testing::deterministic_service(0.001), 0.0, 0.0, 0.01);
  const detail::ClosedLoopLevel level = analyze_closed_loop(run_closed_loop(pool, 1, 5, 40, 1e12), 1, 0.05);
  EXPECT_FALSE(level.independent_littles_law);
  EXPECT_FALSE(level.independent_littles_law_violated);
}

TEST(IndependentLittlesLaw, OpenLoopServersAreCheckedToo) {
  // M/M/1 at rho 0.6: busy fraction 0.6 = arrival rate x mean service.
  SimulatedPool pool(1, testing::exponential_service(0.002, 5), 0.0, 0.0, 2e-3);
  const auto offsets = arrival_offsets(ArrivalProcess::poisson, 300.0, 20000, 3);
  const detail::OpenLoopLevel level =
      analyze_open_loop(run_open_loop(pool, 1, offsets, 100, 1e12), 300.0, 1, 0.05, 0.05);
  ASSERT_TRUE(level.sampled_in_service && level.independent_littles_law);
  EXPECT_NEAR(level.sampled_in_service->mean, 0.6, 0.03);
  EXPECT_FALSE(level.independent_littles_law_violated) << level.independent_littles_law->relative_gap;
}

TEST(HarnessOverhead, LevelWhoseOverheadIsAboveFivePercentIsFlagged) {
  // The harness costs 0.2 us a request (the gap). A 1 us kernel: 20%, flagged; a 100 us one: 0.2%, not.
  const double gap = 0.2e-6;
  for (const double service : {1e-6, 100e-6}) {
    SimulatedPool pool(2, testing::deterministic_service(service), 0.0, gap, 10 * service);
    SimulatedPool noop(2, testing::deterministic_service(0.0), 0.0, gap, 1e-6);
    LoadPlan plan;
    plan.concurrency = {1, 2};
    plan.requests = 5000;
    plan.max_seconds_per_level = 1e12;
    const detail::LoadResult result = run_load_sweep(pool, plan, {}, &noop);
    ASSERT_EQ(result.closed_loop.size(), 2u);
    for (const auto& level : result.closed_loop) {
      ASSERT_TRUE(level.overhead.per_request_seconds);
      EXPECT_NEAR(*level.overhead.per_request_seconds, gap, 1e-3 * gap);
      EXPECT_NEAR(level.overhead.fraction_of_service, gap / service, 1e-3 * gap / service);
      EXPECT_EQ(level.overhead.exceeded, service < 10e-6) << service;
      // And the cost shows in L: each worker is busy service / (service + gap) of the time.
      ASSERT_TRUE(level.sampled_in_flight);
      const double expected = static_cast<double>(level.concurrency) * service / (service + gap);
      EXPECT_NEAR(level.mean_in_flight, expected, 0.01 * expected);
    }
  }
}

}  // namespace
}  // namespace gbx

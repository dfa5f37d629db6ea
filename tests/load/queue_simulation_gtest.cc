// The load engine (extensions/load/load_engine.h) run on a simulated clock, checked against
// queueing theory (stats/queueing.h): Pollaczek-Khinchine for M/D/1 and M/M/1, Little's law, and
// saturation at lambda = 1 / service time. No real time is read or slept.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "extensions/load/load_analysis.h"
#include "extensions/load/load_engine.h"
#include "stats/queueing.h"
#include "tests/load/simulated_pool.h"

namespace gbx {
namespace {

using testing::deterministic_service;
using testing::exponential_service;
using testing::SimulatedPool;

constexpr std::size_t kArrivals = 200000;
constexpr std::size_t kWarmup = 2000;

// The simulated mean wait of a single-server queue with Poisson arrivals at `rate`.
detail::OpenLoopLevel simulate_single_server(double rate, std::function<double()> service, std::uint64_t seed) {
  SimulatedPool pool(1, std::move(service));
  const auto offsets = arrival_offsets(ArrivalProcess::poisson, rate, kArrivals + kWarmup, seed);
  const auto run = run_open_loop(pool, 1, offsets, kWarmup, 1e12);
  return analyze_open_loop(run, rate, 1, 0.02, 0.05);
}

// Tolerance 5% of the theoretical value. With these seeds the simulated means land 0.02% to 1.1% from
// theory (200,000 arrivals); 5% leaves room for other seeds, while a wrong formula (the factor 2 of
// Pollaczek-Khinchine dropped, M/D/1 taken for M/M/1) is off by 50% or more.
constexpr double kWaitTolerance = 0.05;

TEST(QueueSimulation, MD1WaitMatchesPollaczekKhinchine) {
  for (const double rho : {0.5, 0.8}) {
    const double service = 0.002;
    const double rate = rho / service;
    const auto theory = md1_steady_state(rate, service);
    ASSERT_TRUE(theory);
    const detail::OpenLoopLevel level = simulate_single_server(rate, deterministic_service(service), 11);
    EXPECT_NEAR(level.wait_mean_seconds, theory->mean_wait, kWaitTolerance * theory->mean_wait) << "rho " << rho;
    EXPECT_NEAR(level.latency_mean_seconds, theory->mean_response, kWaitTolerance * theory->mean_response);
    EXPECT_NEAR(level.mean_in_system, theory->mean_in_system, kWaitTolerance * theory->mean_in_system);
    EXPECT_FALSE(level.saturated);
  }
}

TEST(QueueSimulation, MM1WaitMatchesPollaczekKhinchine) {
  for (const double rho : {0.5, 0.7}) {
    const double service = 0.002;
    const double rate = rho / service;
    const auto theory = mm1_steady_state(rate, service);
    ASSERT_TRUE(theory);
    const detail::OpenLoopLevel level = simulate_single_server(rate, exponential_service(service, 7), 13);
    EXPECT_NEAR(level.wait_mean_seconds, theory->mean_wait, kWaitTolerance * theory->mean_wait) << "rho " << rho;
    EXPECT_NEAR(level.mean_in_system, theory->mean_in_system, kWaitTolerance * theory->mean_in_system);
  }
}

TEST(QueueSimulation, LittlesLawHoldsOnTheOpenLoop) {
  const detail::OpenLoopLevel level = simulate_single_server(400.0, exponential_service(0.002, 3), 5);
  ASSERT_TRUE(level.littles_law);
  EXPECT_LT(level.littles_law->relative_gap, 0.01);
  EXPECT_FALSE(level.littles_law_violated);
  EXPECT_NEAR(level.littles_law->lambda_w, level.mean_in_system, 0.01 * level.mean_in_system);
}

TEST(QueueSimulation, ClosedLoopThroughputAndLittlesLaw) {
  // 4 workers, 1 ms each: 4000 requests/s, 4 in flight, W = 1 ms, exactly.
  SimulatedPool pool(4, deterministic_service(0.001));
  const auto run = run_closed_loop(pool, 4, 40, 4000, 1e12);
  const detail::ClosedLoopLevel level = analyze_closed_loop(run, 4, 0.02);
  ASSERT_TRUE(level.throughput);
  EXPECT_NEAR(level.throughput->rate, 4000.0, 1e-6 * 4000.0);
  EXPECT_NEAR(level.mean_in_flight, 4.0, 1e-9);
  ASSERT_TRUE(level.latency_median && level.latency_p99);
  EXPECT_NEAR(level.latency_median->estimate, 0.001, 1e-12);
  EXPECT_NEAR(level.latency_p99->estimate, 0.001, 1e-12);
  EXPECT_FALSE(level.littles_law_violated);
  // Exponential service: L = lambda W still, within the window's edge effects.
  SimulatedPool random_pool(3, exponential_service(0.001, 17));
  const detail::ClosedLoopLevel random_level =
      analyze_closed_loop(run_closed_loop(random_pool, 3, 30, 30000, 1e12), 3, 0.02);
  EXPECT_NEAR(random_level.mean_in_flight, 3.0, 1e-9);
  ASSERT_TRUE(random_level.littles_law);
  EXPECT_LT(random_level.littles_law->relative_gap, 0.005);
  EXPECT_NEAR(random_level.throughput->rate, 3000.0, 0.03 * 3000.0);
}

TEST(QueueSimulation, WindowThatCutsRequestsViolatesLittlesLaw) {
  // One worker: a 10 s request then a 1 s one; the window (9, 11] sees both end: lambda = 1/s,
  // W = (10 + 1) / 2 = 5.5 s, so lambda W = 5.5, while one request was in flight throughout: L = 1.
  ClosedLoopRun run;
  run.requests = {{0, 0, 0, 10}, {10, 10, 10, 11}};
  run.window_start = 9.0;
  run.window_end = 11.0;
  const detail::ClosedLoopLevel level = analyze_closed_loop(run, 1, 0.05);
  EXPECT_DOUBLE_EQ(level.mean_in_flight, 1.0);
  ASSERT_TRUE(level.littles_law);
  EXPECT_DOUBLE_EQ(level.littles_law->lambda_w, 5.5);
  EXPECT_TRUE(level.littles_law_violated);
}

TEST(QueueSimulation, SaturatesAtOneOverServiceTime) {
  // 10 ms of service: capacity 100/s. The closed loop at concurrency 1 measures it; the open loop's
  // Poisson arrivals at 0.5 to 0.95 of it are served, at 1.1 and above the queue grows.
  SimulatedPool pool(1, deterministic_service(0.01));
  LoadPlan plan;
  plan.concurrency = {1};
  plan.offered_load = {0.5, 0.8, 0.95, 1.1, 1.3};
  plan.requests = 5000;
  plan.warmup_requests = 100;
  plan.max_seconds_per_level = 1e12;
  const detail::LoadResult result = run_load_sweep(pool, plan);
  ASSERT_TRUE(result.capacity_rate);
  EXPECT_NEAR(*result.capacity_rate, 100.0, 1e-6);
  ASSERT_TRUE(result.saturation_offered_rate);
  EXPECT_NEAR(*result.saturation_offered_rate, 110.0, 1e-6);
  ASSERT_EQ(result.open_loop.size(), 5u);
  for (const auto& level : result.open_loop) {
    ASSERT_TRUE(level.achieved);
    if (level.offered_load > 1.0) {
      EXPECT_TRUE(level.saturated);
      EXPECT_NEAR(level.achieved->rate, 100.0, 2.0) << level.offered_load;
    } else {
      EXPECT_FALSE(level.saturated);
      EXPECT_NEAR(level.achieved->rate, level.arrival_rate, 0.05 * level.arrival_rate) << level.offered_load;
    }
    EXPECT_EQ(level.lateness.max_seconds, 0.0);  // the simulated clock releases every arrival on time
  }
  ASSERT_TRUE(result.max_achieved_rate);
  EXPECT_NEAR(*result.max_achieved_rate, 100.0, 2.0);
}

TEST(QueueSimulation, ThroughputAtTheLatencyBound) {
  // Constant arrivals and 10 ms of service (D/D/1): below saturation nobody waits, so every latency is
  // 10 ms; above it the queue grows. Bound 15 ms: the largest unsaturated load, 0.95 x 100/s, is under it.
  SimulatedPool pool(1, deterministic_service(0.01));
  LoadPlan plan;
  plan.concurrency = {1};
  plan.offered_load = {0.5, 0.95, 1.2};
  plan.arrivals = ArrivalProcess::constant;
  plan.latency_bound_seconds = 0.015;
  plan.requests = 1000;
  plan.max_seconds_per_level = 1e12;
  const detail::LoadResult result = run_load_sweep(pool, plan);
  ASSERT_EQ(result.open_loop.size(), 3u);
  EXPECT_NEAR(result.open_loop[0].latency_p99->estimate, 0.01, 1e-9);
  EXPECT_NEAR(result.open_loop[1].latency_p99->estimate, 0.01, 1e-9);
  EXPECT_GT(result.open_loop[2].latency_p99->estimate, 0.015);
  ASSERT_TRUE(result.throughput_at_bound);
  EXPECT_NEAR(*result.throughput_at_bound, 95.0, 0.2);
  EXPECT_EQ(result.throughput_at_bound_source, "open_loop");
}

TEST(QueueSimulation, LatenessOfTheArrivalsIsMeasured) {
  // A pool that wakes 50 us after each deadline: every arrival that the engine slept for is released
  // 50 us late, and against 100 us of service that is flagged.
  SimulatedPool pool(1, deterministic_service(100e-6), 50e-6);
  const auto offsets = arrival_offsets(ArrivalProcess::constant, 1000.0, 500, 1);
  const detail::OpenLoopLevel level =
      analyze_open_loop(run_open_loop(pool, 1, offsets, 10, 1e12), 1000.0, 1, 0.05, 0.05);
  EXPECT_NEAR(level.lateness.median_seconds, 50e-6, 1e-9);
  EXPECT_NEAR(level.lateness.max_seconds, 50e-6, 1e-9);
  EXPECT_TRUE(level.lateness.late);
  // Latency is counted from the scheduled arrival: the lateness is in it, not hidden.
  EXPECT_NEAR(level.latency_median->estimate, 150e-6, 1e-9);
}

TEST(QueueSimulation, ArrivalSchedules) {
  const auto constant = arrival_offsets(ArrivalProcess::constant, 4.0, 5, 1);
  EXPECT_EQ(constant, (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  // Poisson: seeded, so the same schedule twice; mean gap 1 / rate.
  const auto a = arrival_offsets(ArrivalProcess::poisson, 100.0, 100001, 9);
  EXPECT_EQ(a, arrival_offsets(ArrivalProcess::poisson, 100.0, 100001, 9));
  EXPECT_NE(a, arrival_offsets(ArrivalProcess::poisson, 100.0, 100001, 10));
  EXPECT_NEAR(a.back() / 100000.0, 0.01, 0.01 * 0.02);  // sd of the mean gap: 0.3%
  EXPECT_TRUE(arrival_offsets(ArrivalProcess::poisson, 0.0, 10, 1).empty());
}

}  // namespace
}  // namespace gbx

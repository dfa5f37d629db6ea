// The timers: the simulated one every other test leans on, the CPU one, and their names.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "extensions/cpu_timer.h"
#include "extensions/timer.h"
#include "tests/support/simulated_timer.h"

namespace {

using gbx_test::SimulatedTimer;

// The duration of each of n runs, read through the timer as a sample of one run would be.
std::vector<double> run_durations(SimulatedTimer& timer, int n) {
  std::vector<double> durations;
  for (int i = 0; i < n; ++i) {
    timer.start();
    timer.run();
    timer.stop();
    durations.push_back(timer.elapsed_seconds());
  }
  return durations;
}

double mean_of(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

TEST(SimulatedTimer, SameSeedGivesTheSameSequence) {
  SimulatedTimer a = SimulatedTimer::normal(1e-3, 1e-4, 7);
  SimulatedTimer b = SimulatedTimer::normal(1e-3, 1e-4, 7);
  EXPECT_EQ(run_durations(a, 100), run_durations(b, 100));
}

TEST(SimulatedTimer, DifferentSeedsGiveDifferentSequences) {
  SimulatedTimer a = SimulatedTimer::normal(1e-3, 1e-4, 7);
  SimulatedTimer b = SimulatedTimer::normal(1e-3, 1e-4, 8);
  const auto da = run_durations(a, 100);
  const auto db = run_durations(b, 100);
  // Not just "some element differs": a shifted or partly shared stream would also be a bug.
  int equal = 0;
  for (std::size_t i = 0; i < da.size(); ++i) equal += da[i] == db[i] ? 1 : 0;
  EXPECT_EQ(equal, 0);
}

TEST(SimulatedTimer, LognormalIsReproducibleToo) {
  SimulatedTimer a = SimulatedTimer::lognormal(2e-3, 0.3, 11);
  SimulatedTimer b = SimulatedTimer::lognormal(2e-3, 0.3, 11);
  SimulatedTimer c = SimulatedTimer::lognormal(2e-3, 0.3, 12);
  const auto da = run_durations(a, 50);
  EXPECT_EQ(da, run_durations(b, 50));
  EXPECT_NE(da, run_durations(c, 50));
}

TEST(SimulatedTimer, ConstantReturnsExactlyItsConstantPerRun) {
  // Binary fractions, so "exactly" can be asserted with ==.
  SimulatedTimer timer = SimulatedTimer::constant(0.25, 0.125);
  for (double d : run_durations(timer, 20)) EXPECT_EQ(d, 0.25);
  EXPECT_EQ(timer.runs(), 20);
  EXPECT_EQ(timer.now_seconds(), 5.0);
  EXPECT_EQ(timer.kind(), gbx::detail::TimerKind::simulated);
  EXPECT_EQ(timer.resolution_seconds(), 0.125);
}

TEST(SimulatedTimer, NormalSampleMeanIsCloseToTheMean) {
  // 20000 draws of N(1, 0.1): the standard error of the mean is 0.0007, so 0.005 is 7 of them.
  SimulatedTimer timer = SimulatedTimer::normal(1.0, 0.1, 2024);
  const auto d = run_durations(timer, 20000);
  EXPECT_NEAR(mean_of(d), 1.0, 0.005);
  EXPECT_NEAR(median_of(d), 1.0, 0.005);
}

TEST(SimulatedTimer, LognormalSampleMedianIsCloseToTheMedian) {
  // median 2, sigma 0.5: the mean is 2 exp(0.125) = 2.2663; both within 2% over 20000 draws.
  SimulatedTimer timer = SimulatedTimer::lognormal(2.0, 0.5, 2024);
  const auto d = run_durations(timer, 20000);
  EXPECT_NEAR(median_of(d), 2.0, 0.04);
  EXPECT_NEAR(mean_of(d), 2.0 * std::exp(0.125), 0.045);
  EXPECT_GT(*std::min_element(d.begin(), d.end()), 0.0);
}

TEST(SimulatedTimer, ElapsedQuantisesToTheResolution) {
  // Runs of 0.3 read through a timer with resolution 0.5: every reading is a whole number of
  // ticks, the nearest one to the true interval.
  SimulatedTimer timer = SimulatedTimer::constant(0.3, 0.5);
  for (int n = 1; n <= 12; ++n) {
    timer.start();
    for (int i = 0; i < n; ++i) timer.run();
    timer.stop();
    const double elapsed = timer.elapsed_seconds();
    const double ticks = elapsed / 0.5;
    EXPECT_EQ(ticks, std::round(ticks)) << n << " runs";
    EXPECT_LE(std::fabs(elapsed - 0.3 * n), 0.25 + 1e-12) << n << " runs";
  }
  // Hand-computed: one run (0.3) rounds to one tick, two runs (0.6) to one tick, four (1.2) to two.
  SimulatedTimer fresh = SimulatedTimer::constant(0.3, 0.5);
  EXPECT_EQ(run_durations(fresh, 1).front(), 0.5);
  SimulatedTimer tiny = SimulatedTimer::constant(0.2, 0.5);
  EXPECT_EQ(run_durations(tiny, 1).front(), 0.0);  // 0.4 ticks: below half a tick reads as zero
}

TEST(SimulatedTimer, StartStopBracketOnlyTheRunsBetweenThem) {
  SimulatedTimer timer = SimulatedTimer::constant(0.5, 0.25);
  timer.run();
  timer.run();
  timer.start();
  timer.run();
  timer.run();
  timer.run();
  timer.stop();
  timer.run();  // after stop: not part of the interval
  EXPECT_EQ(timer.elapsed_seconds(), 1.5);
  EXPECT_EQ(timer.runs(), 6);
  EXPECT_EQ(timer.now_seconds(), 3.0);
}

TEST(SimulatedTimer, AdvanceMovesTheClockWithoutARun) {
  SimulatedTimer timer = SimulatedTimer::constant(0.5, 0.25);
  timer.advance(2.0);
  EXPECT_EQ(timer.now_seconds(), 2.0);
  EXPECT_EQ(timer.runs(), 0);
  // Untimed work before start() is not in the interval; untimed work inside it is.
  timer.start();
  timer.run();
  timer.advance(1.0);
  timer.stop();
  EXPECT_EQ(timer.elapsed_seconds(), 1.5);
  EXPECT_EQ(timer.runs(), 1);
}

TEST(SimulatedTimer, RejectsAMissingDistributionAndABadResolution) {
  EXPECT_THROW(SimulatedTimer(SimulatedTimer::Draw{}, 1), std::invalid_argument);
  const auto one = [](std::mt19937_64&) { return 1.0; };
  EXPECT_THROW(SimulatedTimer(one, 1, 0.0), std::invalid_argument);
  EXPECT_THROW(SimulatedTimer(one, 1, -1e-9), std::invalid_argument);
  EXPECT_THROW(SimulatedTimer(one, 1, std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
}

TEST(CpuTimer, ElapsedCoversASleep) {
  gbx::CpuTimer timer;
  timer.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  timer.stop();
  // A lower bound only: the sleep may last longer on a loaded machine, never shorter.
  EXPECT_GE(timer.elapsed_seconds(), 0.020);
}

TEST(CpuTimer, KindAndResolution) {
  gbx::CpuTimer timer;
  EXPECT_EQ(timer.kind(), gbx::detail::TimerKind::cpu);
  EXPECT_GT(timer.resolution_seconds(), 0.0);
  EXPECT_LT(timer.resolution_seconds(), 1e-3);
  EXPECT_EQ(timer.resolution_seconds(), gbx::steady_clock_resolution_seconds());
}

TEST(CpuTimer, ClocksMoveForward) {
  const double wall = gbx::steady_now_seconds();
  const double cpu = gbx::process_cpu_seconds();
  // Burn a little CPU so that the process clock has something to count.
  volatile double sink = 0.0;
  for (int i = 0; i < 1000000; ++i) sink = sink + 1.0;
  EXPECT_GE(gbx::steady_now_seconds(), wall);
  EXPECT_GT(gbx::process_cpu_seconds(), cpu);
}

TEST(TimerKind, ToString) {
  EXPECT_STREQ(gbx::detail::to_string(gbx::detail::TimerKind::cuda_event), "cuda_event");
  EXPECT_STREQ(gbx::detail::to_string(gbx::detail::TimerKind::host_wall), "host_wall");
  EXPECT_STREQ(gbx::detail::to_string(gbx::detail::TimerKind::cpu), "cpu");
  EXPECT_STREQ(gbx::detail::to_string(gbx::detail::TimerKind::simulated), "simulated");
  EXPECT_STREQ(gbx::detail::to_string(static_cast<gbx::detail::TimerKind>(99)), "unknown");
}

}  // namespace

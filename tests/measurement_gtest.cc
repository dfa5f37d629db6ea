// The measurement loop on a simulated clock: warm-up, calibration, sample and time bounds, cold
// flushes and batching, all against hand-computed values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "extensions/measurement.h"
#include "model/interrupt.h"
#include "tests/support/forwarding_timer.h"
#include "tests/support/simulated_timer.h"

namespace {

using gbx::detail::CacheMode;
using gbx::detail::choose_batch;
using gbx::detail::measure;
using gbx::detail::Measurement;
using gbx::detail::MeasurementHooks;
using gbx::detail::Protocol;
using gbx_test::ForwardingTimer;
using gbx_test::SimulatedTimer;

// Hooks that run the simulated kernel and read the simulated clock: the wall time that bounds
// the measurement is exactly the simulated time spent.
MeasurementHooks simulated_hooks(SimulatedTimer& sim) {
  MeasurementHooks hooks;
  hooks.run = [&sim] { sim.run(); };
  hooks.now_seconds = [&sim] { return sim.now_seconds(); };
  return hooks;
}

Protocol protocol(std::int64_t warmup, std::int64_t min_samples, std::int64_t max_samples, double max_time = 1e9) {
  Protocol p;
  p.warmup_runs = warmup;
  p.min_samples = min_samples;
  p.max_samples = max_samples;
  p.max_time_seconds = max_time;
  return p;
}

// Runs lasting `first` seconds for the first `count` runs, then `rest`.
SimulatedTimer first_runs_then(std::int64_t count, double first, double rest, double resolution) {
  auto runs = std::make_shared<std::int64_t>(0);
  return SimulatedTimer([runs, count, first, rest](std::mt19937_64&) { return ++*runs <= count ? first : rest; }, 0,
                        resolution);
}

TEST(Measure, WarmupRunsAreRunAndDiscarded) {
  // Warm-up runs last 1000 s, every later run 1 ms: a warm-up run in a sample would show.
  SimulatedTimer sim = first_runs_then(7, 1000.0, 1e-3, 1e-9);
  const Measurement m = measure(protocol(7, 12, 100), sim, simulated_hooks(sim));
  EXPECT_EQ(m.warmup_runs, 7);
  ASSERT_EQ(m.samples.size(), 12u);
  // One calibration run of 1 ms is already 10^4 resolutions: no batching.
  EXPECT_EQ(m.batch, 1);
  EXPECT_EQ(m.calibration_runs, 1);
  EXPECT_EQ(sim.runs(), m.warmup_runs + m.calibration_runs + static_cast<std::int64_t>(m.samples.size()) * m.batch);
  for (double s : m.samples) EXPECT_NEAR(s, 1e-3, 1e-9);
  EXPECT_EQ(m.timer, gbx::detail::TimerKind::simulated);
  EXPECT_EQ(m.timer_resolution_seconds, 1e-9);
  EXPECT_EQ(m.cache, CacheMode::hot);
  EXPECT_EQ(m.flushes, 0);
  EXPECT_FALSE(m.time_bound_reached);
  EXPECT_FALSE(m.sample_bound_reached);
  // The wall time includes the warm-up.
  EXPECT_NEAR(m.wall_seconds, 7000.0 + 13e-3, 1e-6);
}

TEST(Measure, TotalRunsAddUpWithBatching) {
  // 10 ns runs, resolution 1 ns: a sample must last 100 ns, so runs are batched.
  SimulatedTimer sim = SimulatedTimer::constant(10e-9, 1e-9);
  const Measurement m = measure(protocol(5, 8, 100), sim, simulated_hooks(sim));
  EXPECT_GT(m.batch, 1);
  ASSERT_EQ(m.samples.size(), 8u);
  EXPECT_EQ(m.warmup_runs, 5);
  EXPECT_EQ(sim.runs(), m.warmup_runs + m.calibration_runs + 8 * m.batch);
}

TEST(Measure, NoEnoughHookStopsAtMinSamples) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  const Measurement m = measure(protocol(0, 9, 50), sim, simulated_hooks(sim));
  EXPECT_EQ(m.samples.size(), 9u);
  EXPECT_FALSE(m.sample_bound_reached);
  EXPECT_FALSE(m.time_bound_reached);
  EXPECT_FALSE(m.enough_reached);  // there was no rule to satisfy
}

TEST(Measure, EnoughReachedIsFalseWhenTimeRunsOutFirst) {
  SimulatedTimer sim = SimulatedTimer::constant(1.0);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.check_interval = 1;
  hooks.enough = [](const std::vector<double>& samples) { return samples.size() >= 50; };
  const Measurement m = measure(protocol(0, 3, 100, 10.5), sim, hooks);
  EXPECT_TRUE(m.time_bound_reached);
  EXPECT_FALSE(m.enough_reached);
  EXPECT_FALSE(m.sample_bound_reached);
}

TEST(Measure, EnoughThatNeverAgreesStopsAtMaxSamples) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.enough = [](const std::vector<double>&) { return false; };
  const Measurement m = measure(protocol(0, 10, 37), sim, hooks);
  EXPECT_EQ(m.samples.size(), 37u);
  EXPECT_TRUE(m.sample_bound_reached);
  EXPECT_FALSE(m.time_bound_reached);
  EXPECT_FALSE(m.enough_reached);
}

TEST(Measure, EnoughThatAgreesAtOnceStopsAtMinSamples) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks hooks = simulated_hooks(sim);
  int calls = 0;
  hooks.enough = [&calls](const std::vector<double>&) {
    ++calls;
    return true;
  };
  const Measurement m = measure(protocol(0, 10, 37), sim, hooks);
  EXPECT_EQ(m.samples.size(), 10u);
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(m.sample_bound_reached);
  EXPECT_TRUE(m.enough_reached);
}

TEST(Measure, EnoughIsConsultedEveryCheckInterval) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.check_interval = 5;
  std::vector<std::size_t> seen;
  hooks.enough = [&seen](const std::vector<double>& samples) {
    seen.push_back(samples.size());
    return false;
  };
  const Measurement m = measure(protocol(0, 10, 32), sim, hooks);
  // Once min_samples are in, then every 5; 32 is the bound and is not a consultation.
  EXPECT_EQ(seen, (std::vector<std::size_t>{10, 15, 20, 25, 30}));
  EXPECT_EQ(m.samples.size(), 32u);
  EXPECT_TRUE(m.sample_bound_reached);
}

TEST(Measure, EnoughStopsAtTheFirstConsultationThatAgrees) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.check_interval = 5;
  std::vector<std::size_t> seen;
  hooks.enough = [&seen](const std::vector<double>& samples) {
    seen.push_back(samples.size());
    return samples.size() >= 17;  // first consulted at 20
  };
  const Measurement m = measure(protocol(0, 10, 100), sim, hooks);
  EXPECT_EQ(seen, (std::vector<std::size_t>{10, 15, 20}));
  EXPECT_EQ(m.samples.size(), 20u);
  EXPECT_FALSE(m.sample_bound_reached);
  EXPECT_TRUE(m.enough_reached);
}

TEST(Measure, NonPositiveCheckIntervalMeansEverySample) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.check_interval = 0;
  std::vector<std::size_t> seen;
  hooks.enough = [&seen](const std::vector<double>& samples) {
    seen.push_back(samples.size());
    return samples.size() >= 13;
  };
  const Measurement m = measure(protocol(0, 10, 100), sim, hooks);
  EXPECT_EQ(seen, (std::vector<std::size_t>{10, 11, 12, 13}));
  EXPECT_EQ(m.samples.size(), 13u);
}

TEST(Measure, TimeBoundStopsSamplingEarly) {
  // 1 s runs, 10.5 s allowed, no warm-up. Calibration: one run (t = 1). Samples start at
  // t = 1, 2, ..., 10; at t = 11 the bound has passed: 10 samples, 11 s in all.
  SimulatedTimer sim = SimulatedTimer::constant(1.0);
  const Measurement m = measure(protocol(0, 100, 1000, 10.5), sim, simulated_hooks(sim));
  EXPECT_EQ(m.calibration_runs, 1);
  EXPECT_EQ(m.batch, 1);
  EXPECT_EQ(m.samples.size(), 10u);
  EXPECT_TRUE(m.time_bound_reached);
  EXPECT_FALSE(m.sample_bound_reached);
  EXPECT_NEAR(m.wall_seconds, 11.0, 1e-9);
  EXPECT_LE(m.wall_seconds, 10.5 + 1.0);  // the bound plus one sample
  EXPECT_EQ(m.wall_seconds, sim.now_seconds());
}

TEST(Measure, TimeBoundHoldsWithNoisyBatchedRuns) {
  // 50 ns runs around 1 ns resolution: batches of a few runs; 20 us allowed for a million samples.
  SimulatedTimer sim = SimulatedTimer::lognormal(50e-9, 0.2, 99);
  const Protocol p = protocol(3, 1000000, 2000000, 20e-6);
  const Measurement m = measure(p, sim, simulated_hooks(sim));
  EXPECT_TRUE(m.time_bound_reached);
  EXPECT_GT(m.samples.size(), 1u);
  EXPECT_LT(m.samples.size(), 1000000u);
  const double longest = *std::max_element(m.samples.begin(), m.samples.end());
  // A sample is batch runs; 1 ns of slack for the quantisation of the sample that is read back.
  EXPECT_LE(m.wall_seconds, p.max_time_seconds + longest * static_cast<double>(m.batch) + 1e-9);
}

TEST(Measure, AtLeastOneSampleEvenWhenWarmupUsesTheTime) {
  SimulatedTimer sim = SimulatedTimer::constant(1.0);
  const Measurement m = measure(protocol(10, 5, 10, 2.5), sim, simulated_hooks(sim));
  // Warm-up runs start at t = 0, 1, 2; calibration is skipped once out of time.
  EXPECT_EQ(m.warmup_runs, 3);
  EXPECT_EQ(m.calibration_runs, 0);
  EXPECT_EQ(m.samples.size(), 1u);
  EXPECT_TRUE(m.time_bound_reached);
}

// The bound is checked before each warm-up run, calibration batch and sample, and one sample is
// always taken so that there is a result: a calibration run that crosses the bound is followed by
// that sample. Here: 1 s runs, 0.5 s allowed, no warm-up: calibration ends at 1 s, the sample at 2 s
// = max_time + one calibration batch + one sample, the documented worst case.
TEST(Measure, TimeBoundCrossedDuringCalibrationStillYieldsOneSample) {
  SimulatedTimer sim = SimulatedTimer::constant(1.0);
  const Protocol p = protocol(0, 5, 10, 0.5);
  const Measurement m = measure(p, sim, simulated_hooks(sim));
  ASSERT_EQ(m.samples.size(), 1u);
  EXPECT_TRUE(m.time_bound_reached);
  EXPECT_EQ(m.calibration_runs, 1);
  EXPECT_DOUBLE_EQ(m.wall_seconds, 2.0);
  EXPECT_LE(m.wall_seconds, p.max_time_seconds + 1.0 * static_cast<double>(m.calibration_runs) +
                                m.samples.front() * static_cast<double>(m.batch));
}

TEST(Measure, ColdFlushesBeforeEverySampleOutsideTheTimedRegion) {
  // Flushes take 1 s of simulated time; runs take 2 us. A flush inside the timed region would
  // make a sample a second long.
  SimulatedTimer sim = SimulatedTimer::constant(2e-6, 1e-9);
  std::vector<std::string> events;
  ForwardingTimer timer(sim, &events);
  MeasurementHooks hooks;
  hooks.run = [&] {
    events.push_back("run");
    sim.run();
  };
  hooks.now_seconds = [&] { return sim.now_seconds(); };
  hooks.flush = [&] {
    events.push_back("flush");
    sim.advance(1.0);
  };
  Protocol p = protocol(2, 4, 4);
  p.cache = CacheMode::cold;
  const Measurement m = measure(p, timer, hooks);

  ASSERT_EQ(m.samples.size(), 4u);
  for (double s : m.samples) EXPECT_NEAR(s, 2e-6, 1e-12);
  EXPECT_EQ(m.flushes, 4);
  EXPECT_EQ(m.batch, 1);
  EXPECT_EQ(m.calibration_runs, 0);
  EXPECT_EQ(m.cache, CacheMode::cold);
  EXPECT_FALSE(m.below_resolution);                           // 2 us is 2000 resolutions
  const std::vector<std::string> expected = {"run",   "run",  // warm-up
                                             "flush", "start", "run", "stop", "flush", "start", "run", "stop",
                                             "flush", "start", "run", "stop", "flush", "start", "run", "stop"};
  EXPECT_EQ(events, expected);
  // The flushes do count towards the wall time that max_time bounds.
  EXPECT_NEAR(m.wall_seconds, 4.0 + 6 * 2e-6, 1e-9);
}

TEST(Measure, ColdNeverBatchesAndFlagsShortRuns) {
  // 50 us runs, 1 us resolution: a hot measurement would batch 2; a cold one cannot, and says so.
  SimulatedTimer sim = SimulatedTimer::constant(50e-6, 1e-6);
  MeasurementHooks hooks = simulated_hooks(sim);
  int flushes = 0;
  hooks.flush = [&flushes] { ++flushes; };
  Protocol p = protocol(1, 6, 6);
  p.cache = CacheMode::cold;
  const Measurement m = measure(p, sim, hooks);
  EXPECT_EQ(m.batch, 1);
  EXPECT_EQ(m.calibration_runs, 0);
  EXPECT_EQ(flushes, 6);
  EXPECT_TRUE(m.below_resolution);
  for (double s : m.samples) EXPECT_NEAR(s, 50e-6, 1e-12);
}

TEST(Measure, ColdRunsLongerThanTheTargetAreNotFlagged) {
  SimulatedTimer sim = SimulatedTimer::constant(200e-6, 1e-6);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.flush = [] {};
  Protocol p = protocol(1, 6, 6);
  p.cache = CacheMode::cold;
  EXPECT_FALSE(measure(p, sim, hooks).below_resolution);
}

TEST(Measure, HotModeNeverFlagsBelowResolution) {
  SimulatedTimer sim = SimulatedTimer::constant(50e-6, 1e-6);
  EXPECT_FALSE(measure(protocol(1, 6, 6), sim, simulated_hooks(sim)).below_resolution);
}

TEST(Measure, BatchReachesTheResolutionTarget) {
  // 1 us runs, 0.5 us resolution: a sample must last 100 x 0.5 us = 50 us. Calibration aims
  // 20% past it: batch 60.
  SimulatedTimer sim = SimulatedTimer::constant(1e-6, 0.5e-6);
  ForwardingTimer timer(sim);
  const Measurement m = measure(protocol(0, 5, 5), timer, simulated_hooks(sim));
  const double batch_seconds = static_cast<double>(m.batch) * 1e-6;
  EXPECT_GE(batch_seconds, 100 * 0.5e-6);
  EXPECT_LE(batch_seconds, 1.5 * 100 * 0.5e-6);
  EXPECT_EQ(m.batch, 60);
  EXPECT_EQ(m.calibration_runs, 1 + 60);  // one single run, then one batch that reached the target
  for (double s : m.samples) EXPECT_NEAR(s, 1e-6, 1e-12);
  // One timed region per calibration round and per sample.
  EXPECT_EQ(timer.starts, 2 + 5);
  EXPECT_EQ(timer.stops, timer.starts);
}

TEST(Measure, BatchFactorComesFromTheProtocol) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-6, 0.5e-6);
  Protocol p = protocol(0, 3, 3);
  p.batch_resolution_factor = 10.0;  // 5 us target, 6 us aimed at
  const Measurement m = measure(p, sim, simulated_hooks(sim));
  EXPECT_EQ(m.batch, 6);
}

TEST(Measure, MinTimeSamplesPastMinSamplesUntilTheSpanIsReached) {
  // 1 ms runs, one per sample: 5 samples span 5 ms; a 20.5 ms span needs 21 samples.
  SimulatedTimer sim = SimulatedTimer::constant(1e-3, 1e-9);
  Protocol p = protocol(3, 5, 1000);
  p.min_time_seconds = 0.0205;
  const Measurement m = measure(p, sim, simulated_hooks(sim));
  ASSERT_EQ(m.batch, 1);
  EXPECT_EQ(m.samples.size(), 21u);
  EXPECT_NEAR(m.sampling_seconds, 0.021, 1e-12);
  EXPECT_FALSE(m.sample_bound_reached);
  EXPECT_FALSE(m.time_bound_reached);
}

TEST(Measure, WithoutMinTimeTheSpanIsStillRecorded) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3, 1e-9);
  const Measurement m = measure(protocol(3, 9, 1000), sim, simulated_hooks(sim));
  EXPECT_EQ(m.samples.size(), 9u);
  EXPECT_NEAR(m.sampling_seconds, 0.009, 1e-12);
}

TEST(Measure, MinTimeSpanHoldsTheFlushesBetweenColdSamples) {
  // Cold: a 1 ms flush before each 1 ms sample. The span starts at the first sample, after its flush:
  // n samples span 2n - 1 ms, so 10 ms needs 6 samples (11 ms); 5 would span 9.
  SimulatedTimer sim = SimulatedTimer::constant(1e-3, 1e-9);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.flush = [&sim] { sim.advance(1e-3); };
  Protocol p = protocol(0, 2, 1000);
  p.cache = CacheMode::cold;
  p.min_time_seconds = 0.010;
  const Measurement m = measure(p, sim, hooks);
  EXPECT_EQ(m.samples.size(), 6u);
  EXPECT_NEAR(m.sampling_seconds, 0.011, 1e-12);
}

TEST(Measure, MinTimeBeyondMaxSamplesGrowsTheBatch) {
  // 40 samples of one 1 ms run span 40 ms. For 1 s the batch becomes ceil(1.25 x 1 s / (40 x 1 ms)) = 32
  // runs, so 32 samples of 32 ms span it (1.024 s), within max_samples.
  SimulatedTimer sim = SimulatedTimer::constant(1e-3, 1e-9);
  Protocol p = protocol(0, 5, 40);
  p.min_time_seconds = 1.0;
  const Measurement m = measure(p, sim, simulated_hooks(sim));
  EXPECT_EQ(m.batch, 32);
  EXPECT_EQ(m.samples.size(), 32u);
  EXPECT_NEAR(m.sampling_seconds, 1.024, 1e-9);
  EXPECT_FALSE(m.sample_bound_reached);
  for (double s : m.samples) EXPECT_NEAR(s, 1e-3, 1e-12);  // still seconds per run
}

TEST(Measure, MinTimeWithinReachLeavesTheBatchAlone) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3, 1e-9);
  Protocol p = protocol(0, 5, 1000);
  p.min_time_seconds = 0.5;  // 1000 x 1 ms = 1 s >= 1.25 x 0.5 s
  EXPECT_EQ(measure(p, sim, simulated_hooks(sim)).batch, 1);
}

TEST(Measure, ColdMaxSamplesShortOfMinTimeIsASampleBound) {
  // Cold samples are never batched, so max_samples bounds the span.
  SimulatedTimer sim = SimulatedTimer::constant(1e-3, 1e-9);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.flush = [] {};
  Protocol p = protocol(0, 5, 40);
  p.cache = CacheMode::cold;
  p.min_time_seconds = 1.0;
  const Measurement m = measure(p, sim, hooks);
  EXPECT_EQ(m.batch, 1);
  EXPECT_EQ(m.samples.size(), 40u);
  EXPECT_TRUE(m.sample_bound_reached);
  EXPECT_NEAR(m.sampling_seconds, 0.040, 1e-12);
}

TEST(Measure, MaxTimeStillBoundsMinTime) {
  SimulatedTimer sim = SimulatedTimer::constant(1.0);
  Protocol p = protocol(0, 3, 1000, 10.5);
  p.min_time_seconds = 100.0;
  const Measurement m = measure(p, sim, simulated_hooks(sim));
  EXPECT_TRUE(m.time_bound_reached);
  EXPECT_FALSE(m.sample_bound_reached);
  EXPECT_LT(m.samples.size(), 12u);
}

TEST(Measure, CpuSecondsArePerRunInsideTheTimedRegions) {
  // A fake CPU clock that advances 3 s per run and 100 s per flush: only the timed regions count.
  SimulatedTimer sim = SimulatedTimer::constant(1e-3, 1e-9);
  double cpu = 0.0;
  MeasurementHooks hooks;
  hooks.run = [&] {
    sim.run();
    cpu += 3.0;
  };
  hooks.now_seconds = [&] { return sim.now_seconds(); };
  hooks.cpu_seconds = [&] { return cpu; };
  hooks.flush = [&] { cpu += 100.0; };
  Protocol p = protocol(4, 5, 5);
  p.cache = CacheMode::cold;
  EXPECT_DOUBLE_EQ(measure(p, sim, hooks).cpu_seconds_per_run, 3.0);
}

TEST(Measure, HotCpuSecondsCoverTheWholeSamplingLoop) {
  // Hot mode reads the CPU clock once around all the samples: runs (3 s each) count, and so does
  // whatever else happens while sampling (an `enough` hook costing 10 s); warm-up (4 runs) and
  // calibration (1 run) do not. 5 samples of one run: (5 x 3 + 10) / 5 = 5 s per run.
  SimulatedTimer sim = SimulatedTimer::constant(1e-3, 1e-9);
  double cpu = 0.0;
  MeasurementHooks hooks;
  hooks.run = [&] {
    sim.run();
    cpu += 3.0;
  };
  hooks.now_seconds = [&] { return sim.now_seconds(); };
  hooks.cpu_seconds = [&] { return cpu; };
  hooks.enough = [&](const std::vector<double>&) {
    cpu += 10.0;
    return true;
  };
  const Measurement m = measure(protocol(4, 5, 10), sim, hooks);
  ASSERT_EQ(m.calibration_runs, 1);
  ASSERT_EQ(m.batch, 1);
  ASSERT_EQ(m.samples.size(), 5u);
  EXPECT_DOUBLE_EQ(m.cpu_seconds_per_run, 5.0);
}

TEST(Measure, NoCpuClockGivesZeroCpuTime) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  EXPECT_EQ(measure(protocol(1, 3, 3), sim, simulated_hooks(sim)).cpu_seconds_per_run, 0.0);
}

TEST(Measure, InterruptDuringWarmupStopsBeforeTheNextRun) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.interrupted = [&sim] { return sim.runs() >= 3; };
  EXPECT_THROW(measure(protocol(10, 5, 5), sim, hooks), gbx::Interrupted);
  EXPECT_EQ(sim.runs(), 3);
}

TEST(Measure, InterruptDuringSamplingStopsBeforeTheNextSample) {
  // 2 warm-up runs, 1 calibration run, then samples of one run: asked to stop after 2 samples.
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks hooks = simulated_hooks(sim);
  hooks.interrupted = [&sim] { return sim.runs() >= 5; };
  EXPECT_THROW(measure(protocol(2, 10, 10), sim, hooks), gbx::Interrupted);
  EXPECT_EQ(sim.runs(), 5);
}

TEST(Measure, InterruptHookThatSaysNoChangesNothing) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks hooks = simulated_hooks(sim);
  int asked = 0;
  hooks.interrupted = [&asked] {
    ++asked;
    return false;
  };
  const Measurement m = measure(protocol(2, 4, 4), sim, hooks);
  EXPECT_EQ(m.samples.size(), 4u);
  // Before each of 2 warm-up runs, 1 calibration round and 4 samples.
  EXPECT_EQ(asked, 2 + 1 + 4);
}

TEST(Measure, RefusesMissingHooks) {
  SimulatedTimer sim = SimulatedTimer::constant(1e-3);
  MeasurementHooks no_run = simulated_hooks(sim);
  no_run.run = nullptr;
  EXPECT_THROW(measure(protocol(0, 1, 1), sim, no_run), std::invalid_argument);
  MeasurementHooks no_clock = simulated_hooks(sim);
  no_clock.now_seconds = nullptr;
  EXPECT_THROW(measure(protocol(0, 1, 1), sim, no_clock), std::invalid_argument);
  Protocol cold = protocol(0, 1, 1);
  cold.cache = CacheMode::cold;
  EXPECT_THROW(measure(cold, sim, simulated_hooks(sim)), std::invalid_argument);  // no flush hook
  EXPECT_EQ(sim.runs(), 0);                                                       // refused before running anything
}

TEST(ChooseBatch, HandComputedValues) {
  // ceil(factor * resolution / run)
  EXPECT_EQ(choose_batch(1e-6, 0.5e-6), 50);
  EXPECT_EQ(choose_batch(1e-6, 0.5e-6, 120.0), 60);
  EXPECT_EQ(choose_batch(3e-6, 1e-6), 34);  // 33.3 rounds up
  EXPECT_EQ(choose_batch(7e-9, 1e-9), 15);  // 14.3 rounds up
  EXPECT_EQ(choose_batch(0.25, 0.5), 200);
}

TEST(ChooseBatch, ExactMultiples) {
  EXPECT_EQ(choose_batch(1e-6, 1e-6), 100);
  EXPECT_EQ(choose_batch(2e-8, 2e-8), 100);
  EXPECT_EQ(choose_batch(5e-9, 1e-9), 20);
  EXPECT_EQ(choose_batch(1e-6, 2e-8), 2);
  EXPECT_EQ(choose_batch(0.5, 0.25, 4.0), 2);
}

// factor * resolution / run is computed in floating point: exact multiples whose quotient rounds
// up by one ulp (100 x 1 ns / 100 ns = 1.0000000000000002) must not get one run too many.
TEST(ChooseBatch, ExactMultiplesThatRoundUpInFloatingPoint) {
  EXPECT_EQ(choose_batch(1e-7, 1e-9), 1);
  EXPECT_EQ(choose_batch(5e-8, 1e-9), 2);
  EXPECT_EQ(choose_batch(2.5e-8, 1e-9), 4);
  EXPECT_EQ(choose_batch(2e-7, 2e-9), 1);
}

TEST(ChooseBatch, RunLongerThanTheTargetIsOne) {
  EXPECT_EQ(choose_batch(1e-3, 1e-9), 1);
  EXPECT_EQ(choose_batch(1.0, 0.5e-6), 1);
  EXPECT_EQ(choose_batch(1e-6, 1e-8), 1);  // exactly the target
}

TEST(ChooseBatch, ZeroRunTimeGivesTheCap) {
  const std::int64_t cap = choose_batch(0.0, 1e-9);
  EXPECT_GE(cap, std::int64_t{1} << 20);  // large enough that a batch of it reaches any target
  // The cap is the same whatever way the run time is unusable, and bounds even absurd ratios.
  EXPECT_EQ(choose_batch(-1e-6, 1e-9), cap);
  EXPECT_EQ(choose_batch(std::numeric_limits<double>::quiet_NaN(), 1e-9), cap);
  EXPECT_EQ(choose_batch(1e-300, 1.0), cap);
}

TEST(ChooseBatch, BadResolutionThrows) {
  EXPECT_THROW(choose_batch(1e-6, 0.0), std::invalid_argument);
  EXPECT_THROW(choose_batch(1e-6, -1e-9), std::invalid_argument);
  EXPECT_THROW(choose_batch(1e-6, std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW(choose_batch(0.0, 0.0), std::invalid_argument);  // the resolution is checked first
}

}  // namespace

#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "extensions/protocol.h"
#include "extensions/timer.h"
#include "extensions/warmup.h"

namespace gbx {

// What the measurement loop needs from a benchmark; the loop itself knows no backend.
struct MeasurementHooks {
  std::function<void()> run;            // one run of the kernel
  std::function<void()> flush;          // evicts caches before a cold sample; never timed
  std::function<double()> now_seconds;  // the wall clock that bounds the benchmark
  std::function<double()> cpu_seconds;  // process CPU time, for cpu_time; may be empty
  std::function<bool()> interrupted;    // true: abandon the measurement (measure() throws Interrupted)
  // Asked every check_interval samples once min_samples are in: true stops sampling. Empty means stop
  // at min_samples. max_samples and max_time bound sampling either way.
  std::function<bool(const std::vector<double>& samples)> enough;
  std::int64_t check_interval = 10;
  // Bracket each sample (flush excluded), for counters read around it (energy); may be empty.
  std::function<void()> sample_started;
  std::function<void(std::int64_t runs)> sample_finished;
  // The device's SM clock in MHz now, for auto warm-up's steady-state test; empty or absent: none.
  std::function<std::optional<double>()> sm_clock_mhz;
};

// The raw observations of one measurement: one repetition of one benchmark.
struct Measurement {
  std::vector<double> samples;  // seconds per run, in the order taken
  std::int64_t batch = 1;       // runs per sample
  std::int64_t warmup_runs = 0;
  WarmupOutcome warmup;               // how warm-up ended (fixed count, or auto until steady)
  std::int64_t calibration_runs = 0;  // runs timed only to choose the batch, then discarded
  std::int64_t flushes = 0;
  double timer_resolution_seconds = 0.0;
  TimerKind timer = TimerKind::cpu;
  CacheMode cache = CacheMode::hot;
  double wall_seconds = 0.0;          // the whole measurement, warm-up included
  double cpu_seconds_per_run = 0.0;   // process CPU time while sampling (flushes excluded), per run
  bool time_bound_reached = false;    // --gbx_max_time stopped sampling
  bool sample_bound_reached = false;  // --gbx_max_samples stopped sampling before `enough` agreed
  bool enough_reached = false;        // `enough` said so: the stopping rule's target was met
  bool below_resolution = false;      // cold samples (never batched) shorter than the batch target
};

// The number of runs per sample so that a sample lasts batch_resolution_factor resolutions.
std::int64_t choose_batch(double seconds_per_run, double resolution_seconds, double factor = 100.0);

// Warm-up, batch calibration, then samples, under the protocol's bounds. Throws gbx::Interrupted
// when hooks.interrupted says so, checked before every warm-up run and every sample.
Measurement measure(const Protocol& protocol, Timer& timer, const MeasurementHooks& hooks);

}  // namespace gbx

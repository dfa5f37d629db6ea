#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "extensions/timer.h"
#include "extensions/warmup.h"
#include "model/measurement.h"
#include "model/protocol.h"

namespace gbx::detail {

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

// The number of runs per sample so that a sample lasts batch_resolution_factor resolutions.
std::int64_t choose_batch(double seconds_per_run, double resolution_seconds, double factor = 100.0);

// Warm-up, batch calibration, then samples, under the protocol's bounds. Throws gbx::Interrupted
// when hooks.interrupted says so, checked before every warm-up run and every sample.
Measurement measure(const Protocol& protocol, Timer& timer, const MeasurementHooks& hooks);

}  // namespace gbx::detail

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/protocol.h"

// The raw observations of a measurement, as values: extensions/measurement.h takes them, the record
// carries them, and the tools read them without the measurement's backends.
namespace gbx::detail {

// Which clock produced a sample; recorded with every measurement.
// simulated: the tests' timer (tests/support/simulated_timer.h), named in the records they write.
// manual: a plain Google Benchmark benchmark's own SetIterationTime(), whatever clock it read.
enum class TimerKind { cuda_event, host_wall, cpu, simulated, manual };

const char* to_string(TimerKind kind);

// How warm-up ended. Fixed: the protocol's count. Auto (--gbx_warmup=auto): timed warm-up samples
// until the recent ones show no change point and, on a GPU, the SM clock holds still; bounded, since
// a steady state need not come at all (Barrett et al., "Virtual Machine Warmup Blows Hot and Cold",
// OOPSLA 2017, found it missing in many process executions).
struct WarmupOutcome {
  std::string mode = "fixed";     // "fixed" or "auto"
  std::int64_t runs = 0;          // runs of the kernel, every batch's runs counted
  std::int64_t samples = 0;       // timed warm-up samples (auto only)
  std::string stopped = "count";  // "count" (fixed), "steady_state", "max_samples" or "max_time"
  bool steady = true;             // false: a bound stopped auto warm-up first (flag no_steady_state)
  std::int64_t max_samples = 0;   // the bound (auto only)
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
  double wall_seconds = 0.0;         // the whole measurement, warm-up included
  double cpu_seconds_per_run = 0.0;  // process CPU time while sampling (flushes excluded), per run
  // From the first sample's start to the last one's end, the gaps between samples (a cold benchmark's
  // flushes) included: the span that --gbx_min_time asks for and the GPU's energy figure covers.
  double sampling_seconds = 0.0;
  bool time_bound_reached = false;  // --gbx_max_time stopped sampling
  // --gbx_max_samples stopped sampling before `enough` agreed, or before the span reached --gbx_min_time
  bool sample_bound_reached = false;
  bool enough_reached = false;    // `enough` said so: the stopping rule's target was met
  bool below_resolution = false;  // cold samples (never batched) shorter than the batch target
  // --gbx_cache=rotate: how many copies of the inputs were cycled, the bytes one run touches (one
  // copy), and the last-level cache they were sized against; all 0 in the other modes.
  std::int64_t rotation_copies = 0;
  double rotation_bytes_per_run = 0.0;
  double rotation_cache_bytes = 0.0;
};

}  // namespace gbx::detail

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/accuracy.h"
#include "model/axis_value.h"
#include "model/load_result.h"
#include "model/measurement.h"
#include "model/observations.h"

namespace gbx::detail {

// Why sampling stopped, and whether the protocol's goal was met.
struct StoppingOutcome {
  std::string rule = "min_samples";       // or "target_rel_ci"
  double target_rel_ci = 0.0;             // the goal, with rule target_rel_ci
  bool reached = false;                   // min_samples taken, or the target met, before a bound hit
  std::optional<double> achieved_rel_ci;  // the final relative half-width, when it could be computed
  double min_time_seconds = 0.0;          // --gbx_min_time: the span the samples had to reach too (0: none)
};

// Memory a benchmark used. A value that cannot be read here is absent, with the reason.
struct MemoryUsage {
  std::optional<std::int64_t> device_bytes;  // allocated through the fixture's helpers, workspaces included
  std::string device_bytes_unavailable;
  std::optional<std::int64_t> device_peak_bytes;  // from the device's free memory before and during the run
  std::string device_peak_bytes_unavailable;
  std::optional<std::int64_t> host_peak_bytes;  // allocated through host_array(), at its peak
  std::string host_peak_bytes_unavailable;
};

// Everything one call of a benchmark measured, as the printers receive it.
struct RunRecord {
  std::int64_t id = -1;   // assigned by the channel
  std::string benchmark;  // the registered family name, e.g. "reduce/kahan"
  std::vector<std::int64_t> args;
  std::vector<AxisValue> axes;  // the parameter axes' values (the short form, extensions/axes.h); empty otherwise
  std::string problem;          // the workload, e.g. "reduce/n=16777216"
  std::string variant;          // the implementation, e.g. "kahan"
  std::string region;           // what the timer brackets: "device", "end_to_end" or "cpu"
  // What took the samples: "gbx" (a fixture), or "google_benchmark" for a plain benchmark, whose
  // samples are its repetitions (reporters/plain_samples.h).
  std::string harness = "gbx";
  double flops_per_run = 0.0;
  double bytes_per_run = 0.0;
  std::uint64_t seed = 0;            // of the random inputs
  std::string precision = "fp32";    // of the arithmetic: fp64, fp32, tf32, fp16 or bf16
  std::optional<Accuracy> accuracy;  // when the fixture declared a reference
  MemoryUsage memory;
  Measurement measurement;
  StoppingOutcome stopping;
  Observations observed;           // energy and clocks, when a benchmark observer was installed
  std::optional<LoadResult> load;  // the load sweep, when one ran (docs/load.md)
  bool skipped = false;            // could not run here (no device, say): not a failure
  std::string skip_code;           // why, for tools: e.g. "no_cuda_device" (extensions/cuda_unavailable.h)
  bool interrupted = false;        // stopped by SIGINT/SIGTERM before it finished; left out of the record
  std::string error;               // why it was skipped or failed; empty when it ran
};

}  // namespace gbx::detail

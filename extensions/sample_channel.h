#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "extensions/measurement.h"

namespace gbx {

// Why sampling stopped, and whether the protocol's goal was met.
struct StoppingOutcome {
  std::string rule = "min_samples";       // or "target_rel_ci"
  double target_rel_ci = 0.0;             // the goal, with rule target_rel_ci
  bool reached = false;                   // min_samples taken, or the target met, before a bound hit
  std::optional<double> achieved_rel_ci;  // the final relative half-width, when it could be computed
};

// Everything one call of a benchmark measured, as the printers receive it.
struct RunRecord {
  std::int64_t id = -1;   // assigned by the channel
  std::string benchmark;  // the registered family name, e.g. "reduce/kahan"
  std::vector<std::int64_t> args;
  std::string problem;  // the workload, e.g. "reduce/n=16777216"
  std::string variant;  // the implementation, e.g. "kahan"
  std::string region;   // what the timer brackets: "device", "end_to_end" or "cpu"
  double flops_per_run = 0.0;
  double bytes_per_run = 0.0;
  std::uint64_t seed = 0;  // of the random inputs
  Measurement measurement;
  StoppingOutcome stopping;
  bool skipped = false;      // could not run here (no device, say): not a failure
  bool interrupted = false;  // stopped by SIGINT/SIGTERM before it finished; left out of the record
  std::string error;         // why it was skipped or failed; empty when it ran
};

// Carries raw samples from the fixtures to the reporters. Each call of a benchmark publishes one
// record under its own id, so repetitions never mix; the fixture hands Google Benchmark the id
// through the run's label, which the reporters read back.
class SampleChannel {
 public:
  static SampleChannel& global();

  std::int64_t publish(RunRecord record);
  std::optional<RunRecord> find(std::int64_t id) const;
  std::vector<RunRecord> records() const;
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<RunRecord> records_;
};

// The label a fixture sets so that a reporter can find its record, and its inverse.
std::string record_label(std::int64_t id);
std::optional<std::int64_t> record_id_from_label(const std::string& label);

}  // namespace gbx

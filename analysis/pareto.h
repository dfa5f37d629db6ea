#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "record/record_reader.h"

// Pareto analysis of the variants of one problem over latency, error and memory, all lower-is-better
// (docs/pareto.md). Latency is noisy: a variant beats another on latency only when the two medians'
// intervals separate, and each variant's probability of lying on the frontier is estimated by
// resampling every variant's latency together. Variants are identified by their benchmark `name`
// (unique in a record); `variant` is the label shown to people.

namespace gbx {

// One measured variant of a problem, as the record holds it.
struct ParetoCandidate {
  std::string name;                     // the benchmark's name (repetitions pooled)
  std::string variant;                  // e.g. cublas_tf32
  std::vector<double> latency_samples;  // seconds per run
  std::optional<double> error;          // accuracy.rel_l2_error; absent when not checked
  std::optional<double> memory_bytes;   // device_peak_bytes (device, end_to_end) or host_peak_bytes (cpu)
  std::string memory_kind;              // "device_peak_bytes" or "host_peak_bytes"
  std::optional<double> energy_joules;  // per run: energy.gpu (device, end_to_end) or energy.cpu (cpu)
  // gbx.load.throughput_at_bound_per_second, higher is better (docs/load.md); absent without a sweep
  std::optional<double> throughput_at_bound;
  bool accuracy_failed = false;  // accuracy.passed == false: listed apart, never on the frontier
  std::string failure;           // why, in words, when accuracy_failed
};
// A non-finite error or memory value counts as absent; a variant with no samples or a non-finite
// one is left out of the analysis (named under `missing`, objective "latency").

struct ParetoOptions {
  double level = 0.95;           // of the latency intervals that decide latency dominance
  std::size_t resamples = 2000;  // joint resamples for the frontier probabilities
  // Of those resamples: the probabilities depend on the seed and the data only.
  std::uint64_t seed = 0x9e3779b97f4a7c15ULL;
};

struct ParetoVariant {
  std::string name;
  std::string variant;
  double latency_median = 0.0;
  double latency_lower = 0.0;  // the median's interval at ParetoOptions::level
  double latency_upper = 0.0;
  std::optional<double> error;
  std::optional<double> memory_bytes;
  std::string memory_kind;
  std::optional<double> energy_joules;
  std::optional<double> throughput_at_bound;
  bool on_frontier = false;
  // The `name` of a variant that dominates this one: one on the frontier when there is such a
  // dominator, then the one with the lowest median latency. Absent on the frontier.
  std::optional<std::string> dominated_by;
  // Share of the joint resamples in which it is non-dominated; NaN (null in JSON) with no resamples.
  double frontier_probability = 0.0;
};

// An objective left out of a group ("error", "memory"), and the names of the variants that lack it.
// "latency" is never left out: variants without usable samples are left out of the analysis instead,
// and named under "latency".
struct MissingObjective {
  std::string objective;
  std::vector<std::string> variants;
};

struct ParetoGroup {
  std::string problem;
  nlohmann::json axes;  // the problem's axes (gbx.axes less the variant axes) in the short form; else null
  std::vector<std::string> objectives;  // those used, of "latency", "error", "memory", "throughput_at_bound"
  std::vector<MissingObjective> missing;
  std::vector<ParetoVariant> variants;  // eligible variants, in input order
  std::vector<ParetoCandidate> failed;  // failed accuracy: never on the frontier, never dominating
  std::size_t resamples = 0;
  double level = 0.0;
};

// The analysis of one problem's candidates.
ParetoGroup analyze_pareto(const std::string& problem, const std::vector<ParetoCandidate>& candidates,
                           const ParetoOptions& options = {});

// Every problem of a record as the record reader gives it (record/record_reader.h): the benchmarks that
// ran, grouped by gbx.problem, repetitions of one name pooled. Plain Google Benchmark JSON gives no groups.
std::vector<ParetoGroup> pareto_from_record(const LoadedRecord& record, const ParetoOptions& options = {});

// The same for a record in memory, such as one being written and not yet sealed: read through the
// record reader; a record it refuses gives no groups.
std::vector<ParetoGroup> pareto_from_record(const nlohmann::json& record, const ParetoOptions& options = {});

// gbx.pareto in the record (docs/json-format.md).
nlohmann::json pareto_json(const std::vector<ParetoGroup>& groups);

// The console summary printed below the table: problems with two or more variants.
void print_pareto(std::ostream& out, const std::vector<ParetoGroup>& groups);

}  // namespace gbx

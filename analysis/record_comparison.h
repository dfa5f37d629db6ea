#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "record/record_reader.h"
#include "stats/bootstrap.h"
#include "stats/comparison.h"
#include "stats/hierarchical.h"

// The comparison of two loaded records: what `gbx compare` prints and `gbx report` shows. Apart from
// the command (cli/compare_command.h), so that the report's model depends on data, not a command.
namespace gbx::tools {

// A fact on which the two records differ, with both values.
struct Difference {
  std::string what;
  std::string base;
  std::string candidate;
};

// One benchmark present in both records.
struct ComparisonRow {
  std::string name;             // the base's Google Benchmark name, as its record has it
  std::string label;            // the name as shown: shown_benchmark_name(name) (text/benchmark_name.h)
  BootstrapResult base_median;  // over all samples, widened by half a tick
  BootstrapResult candidate_median;
  // Each side's process-level median, when it has >= 2 processes.
  std::optional<HierarchicalEstimate> base_processes;
  std::optional<HierarchicalEstimate> candidate_processes;
  ComparisonEvidence evidence;
  std::optional<RatioInterval> ratio;  // process-level when evidence.process_level(), else over samples
  MannWhitney test;                    // over all samples, for the JSON
  std::string test_name;               // the test behind p_value: Welch on process medians or Mann-Whitney
  double p_value = 1.0;
  double adjusted_p = 1.0;
  double shift = 0.0;
  double delta = 0.0;
  Verdict verdict = Verdict::inconclusive;
  bool incompatible = false;
  // The clock flags (throttled_thermal, throttled_power, clock_changed) either side carries, as
  // "base: ...; candidate: ..."; empty when neither does. A verdict on throttled timings says so.
  std::string throttled;
  // Non-empty: that side failed its accuracy check against the reference (the record's words).
  std::string base_accuracy_failure;
  std::string candidate_accuracy_failure;
  std::string sentence;
};

// The candidate failed its accuracy check where the base passed (each side's failure in words, empty
// where it passed or was not checked): a regression whatever its speed. The gate fails it (exit 1), and
// the row reads "inaccurate". gbx ab's rows (ab/paired.h) judge it the same way.
inline bool candidate_failed_alone(const std::string& base_failure, const std::string& candidate_failure) {
  return !candidate_failure.empty() && base_failure.empty();
}
inline bool candidate_inaccurate(const ComparisonRow& row) {
  return candidate_failed_alone(row.base_accuracy_failure, row.candidate_accuracy_failure);
}

// What a row's verdict column says: "inaccurate", or the verdict of its times.
std::string verdict_text(const ComparisonRow& row);

// A row's sentence: its label, then the timing's words, with each side's failed accuracy check (the
// record's words; empty: passed or not checked). Only the candidate failing makes it "inaccurate: ...".
// gbx ab's rows (ab/paired.h) say it the same way.
std::string with_accuracy(const std::string& label, const std::string& timing, const std::string& base_failure,
                          const std::string& candidate_failure);

struct Comparison {
  std::vector<Difference> differences;  // run-level facts, then each common benchmark's own
  std::vector<ComparisonRow> rows;      // in the base's order; empty when no name is in common
  std::vector<std::string> only_in_base;
  std::vector<std::string> only_in_candidate;
  bool fewer_facts = false;  // a side is plain Google Benchmark JSON
  double noise_band = 0.02;
  double fdr = 0.05;

  bool compatible() const { return differences.empty(); }
};

// The whole comparison of CAND against BASE, whether or not the records are compatible (every row is
// then marked incompatible): what `gbx compare` prints and `gbx report` shows.
Comparison compare_loaded(const LoadedRecord& base, const LoadedRecord& candidate, double noise_band = 0.02,
                          double fdr = 0.05);

// The run-level facts (GPU, driver, toolkit, build, protocol) on which two records differ.
std::vector<Difference> gate_differences(const nlohmann::json& base, const nlohmann::json& candidate);

// What a comparison with plain Google Benchmark JSON could not check.
extern const char* const kFewerFactsNote;

// A side's median as the tables show it: process-level when measured, else over all samples.
double shown_median(const std::optional<HierarchicalEstimate>& processes, const BootstrapResult& samples);

}  // namespace gbx::tools

#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "stats/bootstrap.h"
#include "stats/comparison.h"
#include "stats/hierarchical.h"
#include "tools/record_loader.h"

namespace gbx::tools {

struct CompareOptions {
  std::string base;
  std::string candidate;
  std::string format = "console";  // console, markdown or json
  bool allow_incompatible = false;
  double noise_band = 0.02;  // ratios within 1 +/- band are "the same"
  double fdr = 0.05;         // Benjamini-Hochberg q
};

// A fact on which the two records differ, with both values.
struct Difference {
  std::string what;
  std::string base;
  std::string candidate;
};

// One benchmark present in both records.
struct ComparisonRow {
  std::string name;
  std::string label;  // "problem variant", or the name for plain Google Benchmark JSON
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
  std::string sentence;
};

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

// What a comparison with plain Google Benchmark JSON could not check.
extern const char* const kFewerFactsNote;

// The Markdown table of the rows and their sentences, as `gbx compare --format=markdown` prints them.
void print_comparison_markdown(std::ostream& out, const Comparison& comparison);

// `gbx compare BASE CAND`: exit 1 when a benchmark is slower, else 3 when one is unreplicated or
// insufficient, else 0; 2 on bad input or incompatible records (unless allow_incompatible). Messages
// name the file and the fault.
int compare_records(const CompareOptions& options, std::ostream& out, std::ostream& err);

// compare_records over records already loaded (options.base and options.candidate name them): what
// `gbx compare` and `gbx ab` print, with the same exit codes.
int report_comparison(const CompareOptions& options, const LoadedRecord& base, const LoadedRecord& candidate,
                      std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "analysis/record_comparison.h"

namespace gbx::tools {

struct CompareOptions {
  std::string base;
  std::string candidate;
  std::string format = "console";  // console, markdown or json
  bool allow_incompatible = false;
  double noise_band = 0.02;          // ratios within 1 +/- band are "the same"
  double fdr = 0.05;                 // Benjamini-Hochberg q
  bool colour = false;               // console verdicts in colour (the gbx tool: on a terminal, without NO_COLOR)
  std::string tool = "gbx compare";  // the prefix of messages: gbx ab compares through here too
  std::string pair_test;             // two `gbx ab` records: redo the pairs' test with this one (else as recorded)
};

// `gbx compare BASE CAND`: exit 1 when a benchmark is slower, else 3 when one is unreplicated or
// insufficient, else 0; 2 on bad input or incompatible records (unless allow_incompatible). Messages
// name the file and the fault.
int compare_records(const CompareOptions& options, std::ostream& out, std::ostream& err);

// compare_records over records already loaded (options.base and options.candidate name them).
int report_comparison(const CompareOptions& options, const LoadedRecord& base, const LoadedRecord& candidate,
                      std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

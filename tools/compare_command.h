#pragma once

#include <iosfwd>
#include <string>

namespace gbx::tools {

struct CompareOptions {
  std::string base;
  std::string candidate;
  std::string format = "console";  // console, markdown or json
  bool allow_incompatible = false;
  double noise_band = 0.02;  // ratios within 1 +/- band are "the same"
  double fdr = 0.05;         // Benjamini-Hochberg q
};

// `gbx compare BASE CAND`: exit 0 when no benchmark is slower, 1 when one is, 2 on bad input or
// incompatible records (unless allow_incompatible). Messages name the file and the fault.
int compare_records(const CompareOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

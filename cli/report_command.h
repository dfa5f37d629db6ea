#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace gbx::tools {

struct ReportOptions {
  std::vector<std::string> inputs;  // one record or more
  std::string output;               // empty: report.html for HTML, stdout for Markdown
  std::string format = "html";      // html or markdown
  std::string assets;               // a node_modules directory with vega and vega-lite; empty: look further
};

// Where the HTML report's Vega and Vega-Lite come from: --assets, else $GBX_REPORT_ASSETS, else the
// directory `npm ci --prefix report` fills (compiled in). The first one given is the one used.
struct AssetsLocation {
  std::string directory;
  std::string source;  // "--assets", "GBX_REPORT_ASSETS" or "the default"
};
AssetsLocation locate_assets(const std::string& option);

// `gbx report RUN.json...`: exit 0 when the report is written; 2 on bad input (the file and the fault
// named), bad usage or missing assets, and then nothing is written. The file is written atomically.
int write_report(const ReportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "tools/report_model.h"

// `gbx report` as one self-contained HTML file (docs/report.md has the contract): Vega and Vega-Lite
// inlined, every chart a Vega-Lite spec emitted here with its data inline, plain CSS and a few lines of
// our own script to render the charts and sort the tables. Nothing is fetched when it is opened.

namespace gbx::tools {

// The UMD builds of Vega and Vega-Lite, as npm installs them.
struct HtmlAssets {
  std::string vega;       // vega/build/vega.min.js: the global `vega`
  std::string vega_lite;  // vega-lite/build/vega-lite.min.js: the global `vegaLite`
};

// Reads both files under a node_modules directory. Throws std::runtime_error naming a missing file.
HtmlAssets read_assets(const std::string& node_modules);

// One chart: its container's id, kind (ecdf, pareto, throughput, compare, trend), the container's
// other data- attributes, and its Vega-Lite spec.
struct Chart {
  std::string id;
  std::string kind;
  std::vector<std::pair<std::string, std::string>> attributes;
  nlohmann::json spec;
};

// Every chart of the report, in page order.
std::vector<Chart> report_charts(const ReportModel& model);

// The whole page.
std::string html_report(const ReportModel& model, const HtmlAssets& assets);

// Text as HTML text or attribute value: & < > " ' escaped.
std::string html_escape(const std::string& text);

// Script text safe inside <script>: every "</script", in any case, becomes "<\/script".
std::string script_safe(const std::string& text);

}  // namespace gbx::tools

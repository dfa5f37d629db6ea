#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "report/report_model.h"

// `gbx report` as one self-contained HTML file (docs/report.md has the contract): Vega and Vega-Lite
// inlined, every chart a Vega-Lite spec emitted here with its data inline, plain CSS and a few lines of
// our own script (report/assets/, compiled in) to render the charts and sort the tables. Nothing
// is fetched when it is opened. The page opens on a summary and the results; details come last.
//
// The writer is split by concern: html_report_charts.cc and html_report_scatter.cc emit the chart
// specs, html_report_tables.cc the tables, and html_report.cc assembles the page.

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

}  // namespace gbx::tools

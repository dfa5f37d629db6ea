#pragma once

#include <string>

#include "report/html_report.h"
#include "report/report_model.h"

// `gbx report` over many records (kHistoryRuns or more): one static page of the suite's history rather
// than the report of each run. On the first screen: the counts, and the latest changes (each change
// point found, newest first, with its size, run, date and commit); below, each benchmark's medians over
// time with their intervals and the change points marked (the trend charts of html_report_charts.h).
// The same style, script and render contract as the report (docs/report.md), so the browser test
// checks it as it checks the report.

namespace gbx::tools {

// From this many records on, `gbx report` writes the history page.
constexpr std::size_t kHistoryRuns = 10;

std::string history_page(const ReportModel& model, const HtmlAssets& assets);

}  // namespace gbx::tools

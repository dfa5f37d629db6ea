#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/html_report.h"
#include "report/report_model.h"

// The Vega-Lite specs of the HTML report, one function per kind of chart (docs/report.md says how each
// is drawn). Internal to the report: report/html_report.h is its interface.

namespace gbx::tools::html {

constexpr int kChartWidth = 560;

// The measured rows of every run, by benchmark name in first-seen order, with the runs that have it.
struct NamedRows {
  std::string name;
  std::string label;
  std::vector<std::pair<std::size_t, const BenchmarkRow*>> rows;  // run index, row
};
std::vector<NamedRows> rows_by_name(const ReportModel& model);

// The Pareto groups the page shows: those of two variants or more.
std::vector<const ParetoGroup*> shown_pareto_groups(const ReportModel& model);

// Log when the values are all positive and span more than a factor of log_above: one slow outlier
// would otherwise squeeze everything else into a corner.
nlohmann::json position_scale(double smallest, double largest, double log_above = 20.0);

// A d3 format that shows values spread like these to the digits that tell them apart, and no more:
// a flat series of 4.306 gets "4.306", not "4.306000" (issue 14).
std::string tick_format(double smallest, double largest);

std::vector<std::string> run_labels(const ReportModel& model);

Chart ecdf_chart(const ReportModel& model, const NamedRows& named, std::size_t number_in_page);
Chart compare_chart(const ReportModel& model);
Chart trend_chart(const ReportModel& model, const TrendSeries& series, std::size_t number_in_page);
Chart pareto_chart(const ParetoGroup& group, std::size_t number_in_page);
std::optional<Chart> throughput_chart(const ReportModel& model);

}  // namespace gbx::tools::html

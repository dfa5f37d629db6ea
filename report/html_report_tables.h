#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/html_report.h"
#include "report/report_model.h"

// The HTML report's tables and the text around them. Internal to the report: report/html_report.h is
// its interface. Every text from a record goes through gbx::html_text (text/escape.h).

namespace gbx::tools::html {

// Appends to the page as it is built: the page is one string, never copied (issue 13's memory).
class Page {
 public:
  explicit Page(std::string& text) : text_(text) {}
  Page& operator<<(std::string_view piece) {
    text_.append(piece);
    return *this;
  }
  Page& operator<<(char c) {
    text_ += c;
    return *this;
  }
  Page& operator<<(std::size_t number) {
    text_ += std::to_string(number);
    return *this;
  }
  std::string& text() { return text_; }

 private:
  std::string& text_;
};

struct Column {
  std::string name;
  bool numeric = false;
  bool secondary = false;  // hidden until the reader asks for every column, so the table fits the page
};

std::string cell(const std::string& text, const std::string& sort_key = "", const std::string& title = "",
                 bool secondary = false);
std::string sort_key(const std::optional<double>& value);
std::string header_row(const std::vector<Column>& columns);
std::string chart_container(const Chart& chart);
std::string interval_text(const std::optional<double>& lower, const std::optional<double>& upper);

// The frame both pages share. The start: the document's head with this title (already HTML text) and
// the embedded style sheet, then <body>. The end: every chart's spec, written once and then dropped
// from the charts, the charting libraries and the report's script, then </html>.
void write_page_start(Page& page, const std::string& title_html);
void write_page_end(Page& page, std::vector<Chart>& charts, const HtmlAssets& assets);

// One run's results: a row per benchmark, secondary columns hidden.
void write_benchmark_table(Page& page, const RunReport& run, std::size_t index);
// One run's environment and protocol, collapsed, and what plain Google Benchmark JSON lacks.
void write_run_details(Page& page, const RunReport& run, std::size_t index);
void write_pareto_table(Page& page, const ParetoGroup& group);
// The comparison of two runs: its chart, then its table.
void write_comparison(Page& page, const ReportModel& model, const Chart& chart);

}  // namespace gbx::tools::html

#include "report/history_page.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "report/html_report_charts.h"
#include "report/html_report_tables.h"
#include "text/escape.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

using json = nlohmann::json;
using html::Page;

struct Change {
  const TrendSeries* series = nullptr;
  const TrendChangePoint* point = nullptr;
  std::size_t run = 0;       // index into model.runs
  std::size_t position = 0;  // in date order: the newest change first
};

std::vector<Change> changes_newest_first(const ReportModel& model) {
  std::vector<std::size_t> position(model.runs.size(), 0);
  for (std::size_t i = 0; i < model.by_date.size(); ++i) position[model.by_date[i]] = i;
  std::vector<Change> changes;
  for (const auto& series : model.trends) {
    for (const auto& p : series.change_points) {
      const std::size_t run = series.points[p.index].run;
      changes.push_back({&series, &p, run, position[run]});
    }
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const Change& a, const Change& b) { return a.position > b.position; });
  return changes;
}

void card(Page& page, std::size_t count, const std::string& what, const char* tone = "") {
  page << "<div class=\"gbx-card" << (*tone != '\0' ? std::string(" ") + tone : "") << "\"><b>" << count << "</b><span>"
       << html_text(what) << "</span></div>";
}

void write_latest_changes(Page& page, const ReportModel& model, const std::vector<Change>& changes) {
  page << "<section id=\"latest-changes\">\n<h2>Latest changes</h2>\n";
  if (changes.empty()) {
    page << "<p>No change point: every benchmark's medians stay within their runs' intervals.</p>\n</section>\n";
    return;
  }
  page << "<p class=\"gbx-note\">Change points (E-divisive means, permutation test, p &le; "
       << format_fixed(kTrendAlpha, 2)
       << "; steps within the runs' intervals ignored), newest first: the run where the new level starts.</p>\n"
       << "<table class=\"gbx-sortable gbx-changes\"><thead><tr><th>Benchmark</th><th>Change</th><th>From run</th>"
          "<th>Date</th><th>Commit</th><th>Median before &rarr; after</th><th>p</th></tr></thead><tbody>\n";
  for (const Change& c : changes) {
    const RunReport& run = model.runs[c.run];
    const auto& points = c.series->points;
    const double after = points[c.point->index].median;
    const double before = c.point->index > 0 ? points[c.point->index - 1].median : after;
    const bool slower = c.point->relative_change > 0.0;
    const std::string commit = run_commit(run);
    page << "<tr class=\"" << (slower ? "gbx-slower" : "gbx-faster") << "\"><td>" << html_text(c.series->label)
         << "</td><td data-sort=\"" << format_fixed(c.point->relative_change, 6) << "\"><strong class=\""
         << (slower ? "gbx-bad" : "gbx-ok") << "\">" << html_text(format_percent(std::fabs(c.point->relative_change)))
         << (slower ? " slower" : " faster") << "</strong></td><td>" << html_text(run.label) << "</td><td>"
         << html_text(run.created.empty() ? "unknown" : run.created) << "</td><td>"
         << (commit.empty() ? std::string("-") : "<code>" + html_text(commit.substr(0, 12)) + "</code>") << "</td><td>"
         << html_text(format_duration(before)) << " &rarr; " << html_text(format_duration(after)) << "</td><td>"
         << html_text(format_three_digits_compact(c.point->p_value)) << "</td></tr>\n";
  }
  page << "</tbody></table>\n</section>\n";
}

}  // namespace

std::string history_page(const ReportModel& model, const HtmlAssets& assets) {
  const std::vector<Change> changes = changes_newest_first(model);
  std::vector<Chart> charts;
  charts.reserve(model.trends.size());
  for (std::size_t i = 0; i < model.trends.size(); ++i) charts.push_back(html::trend_chart(model, model.trends[i], i));
  std::string text;
  Page page(text);
  const RunReport& first = model.runs[model.by_date.front()];
  const RunReport& last = model.runs[model.by_date.back()];
  html::write_page_start(page, "gbx history: " + std::to_string(model.runs.size()) + " runs");
  page << "<h1>gbx history: " << model.runs.size() << " runs, " << model.trends.size() << " benchmarks</h1>\n"
       << "<nav><a href=\"#summary\">Summary</a><a href=\"#latest-changes\">Latest changes</a>"
          "<a href=\"#trend\">Each benchmark</a></nav>\n<section id=\"summary\">\n<div class=\"gbx-cards\">";
  std::size_t slower = 0;
  for (const Change& c : changes) slower += c.point->relative_change > 0.0 ? 1 : 0;
  card(page, model.runs.size(), "runs");
  card(page, model.trends.size(), "benchmarks");
  card(page, slower, "steps slower", slower > 0 ? "gbx-bad" : "gbx-ok");
  card(page, changes.size() - slower, "steps faster");
  page << "</div>\n<p>From " << html_text(first.created.empty() ? first.path : first.created) << " (run "
       << html_text(first.label) << ") to " << html_text(last.created.empty() ? last.path : last.created) << " (run "
       << html_text(last.label) << (run_commit(last).empty() ? "" : ", commit " + html_text(run_commit(last)))
       << ").</p>\n"
       << "</section>\n";
  write_latest_changes(page, model, changes);
  page << "<section id=\"trend\">\n<h2>Each benchmark over time</h2>\n<p>The median of each run with its interval, "
          "oldest first; a dashed rule marks a change point.</p>\n";
  for (const Chart& chart : charts) page << html::chart_container(chart);
  page << "</section>\n";
  html::write_page_end(page, charts, assets);
  return text;
}

}  // namespace gbx::tools

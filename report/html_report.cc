// The HTML report's page: a summary and the results first, fitting a 1,400 x 900 screen (issue 14);
// then the comparison or trend, the distributions, the Pareto fronts and throughput; environment and
// protocol last, collapsed. The chart specs come from html_report_charts.h, the tables from
// html_report_tables.h, the style and script from report/assets (cmake/GbxEmbedFile.cmake).
#include "report/html_report.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "report/html_report_charts.h"
#include "report/html_report_tables.h"
#include "text/escape.h"
#include "text/flag_legend.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

using json = nlohmann::json;
using html::Page;

// The summary lists this many slower benchmarks and Pareto fronts at most, so that it fits one screen;
// the sections below hold them all.
constexpr std::size_t kSummaryItems = 5;

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path + ": cannot open the file");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<const Chart*> of_kind(const std::vector<Chart>& charts, const std::string& kind) {
  std::vector<const Chart*> list;
  for (const auto& chart : charts) {
    if (chart.kind == kind) list.push_back(&chart);
  }
  return list;
}

void card(Page& page, std::size_t count, const std::string& what, const char* tone = "") {
  page << "<div class=\"gbx-card" << (*tone != '\0' ? std::string(" ") + tone : "") << "\"><b>" << count << "</b><span>"
       << html_text(what) << "</span></div>";
}

std::string frontier_text(const ParetoGroup& group) {
  std::string names;
  for (const auto& v : group.variants) {
    if (v.on_frontier) names += (names.empty() ? "" : ", ") + pareto_label(group, v.name);
  }
  return group.problem + ": " + (names.empty() ? "no variant on the frontier" : names);
}

// How many benchmarks, failures and flags; regressions when comparing; the Pareto frontiers.
void write_summary(Page& page, const ReportModel& model) {
  const RunReport& last = model.runs.back();
  const auto [measured, skipped, failed, flagged] = count_rows(last);
  const std::string of_run = model.runs.size() > 1 ? " (run " + last.label + ")" : "";
  page << "<section id=\"summary\">\n<div class=\"gbx-cards\">";
  const auto not_run = not_run_reasons(last);
  card(page, measured, "benchmarks measured" + of_run);
  if (skipped + last.not_run.size() > 0) card(page, skipped + last.not_run.size(), "not run on this machine");
  card(page, failed, "failed accuracy", failed > 0 ? "gbx-bad" : "gbx-ok");
  card(page, flagged, "flagged (outliers, drift...)");
  std::vector<const ComparisonRow*> slower;
  VerdictCounts verdicts;
  if (model.comparison) {
    for (const auto& row : model.comparison->rows) {
      if (row.verdict == Verdict::slower) slower.push_back(&row);
    }
    verdicts = count_verdicts(*model.comparison);
    card(page, verdicts.slower, "slower than " + model.runs[0].label, slower.empty() ? "gbx-ok" : "gbx-bad");
    card(page, verdicts.faster, "faster");
    card(page, verdicts.same, "same");
    // Every row is counted once: undecided rows are neither slower nor faster nor same.
    const std::string kinds = undecided_kinds(verdicts);
    card(page, verdicts.undecided(), kinds.empty() ? "undecided" : "undecided: " + kinds,
         verdicts.undecided() > 0 ? "gbx-warn" : "");
  }
  if (!model.trends.empty()) card(page, model.runs.size(), "runs in the trend");
  page << "</div>\n<ul class=\"gbx-runs\">";
  for (const auto& run : model.runs) {
    page << "<li>Run " << html_text(run.label) << ": <code>" << html_text(run.path) << "</code>, "
         << html_text(run.created.empty() ? "date unknown" : run.created) << ", checksum <span class=\""
         << (run.has_gbx ? "gbx-ok" : "gbx-warn") << "\">" << html_text(run.checksum_status) << "</span>"
         << (run.interrupted ? " <strong class=\"gbx-bad\">interrupted: only finished benchmarks are kept</strong>"
                             : "")
         << "</li>";
  }
  page << "</ul>\n";
  for (const auto& reason : not_run) {
    page << "<p class=\"gbx-not-run-line\">" << html_text(reason.sentence) << " (<a href=\"#not-run-"
         << model.runs.size() - 1 << "\">list</a>)</p>\n";
  }
  if (model.comparison && !model.comparison->compatible()) {
    page << "<p class=\"gbx-warning\">The two records are <strong>not compatible</strong>: see the comparison.</p>\n";
  }
  if (verdicts.undecided() > 0) {
    page << "<p class=\"gbx-undecided-line\">Undecided, neither slower, faster nor same: "
         << html_text(undecided_reasons(verdicts)) << " (<a href=\"#comparison\">comparison</a>).";
    if (verdicts.slower == 0 && verdicts.unreplicated + verdicts.insufficient > 0) {
      page << " With nothing slower, such rows make <code>gbx compare</code> exit 3: the gate cannot decide.";
    }
    page << "</p>\n";
  }
  if (!slower.empty()) {
    page << "<p>Slower:</p><ul>";
    for (std::size_t i = 0; i < slower.size() && i < kSummaryItems; ++i) {
      page << "<li>" << html_text(slower[i]->sentence) << "</li>";
    }
    if (slower.size() > kSummaryItems)
      page << "<li><a href=\"#comparison\">and " << slower.size() - kSummaryItems << " more</a></li>";
    page << "</ul>\n";
  }
  const auto groups = html::shown_pareto_groups(model);
  if (!groups.empty()) {
    page << "<p>Pareto frontiers (run " << html_text(pareto_run(model).label) << "):</p><ul>";
    for (std::size_t i = 0; i < groups.size() && i < kSummaryItems; ++i) {
      page << "<li>" << html_text(frontier_text(*groups[i])) << "</li>";
    }
    if (groups.size() > kSummaryItems)
      page << "<li><a href=\"#pareto\">and " << groups.size() - kSummaryItems << " more</a></li>";
    page << "</ul>\n";
  }
  page << "</section>\n";
}

// The benchmarks that could not run, collapsed: a reader wants the results first.
void write_not_run(Page& page, const RunReport& run, std::size_t index) {
  if (run.not_run.empty()) return;
  page << "<details class=\"gbx-not-run\" id=\"not-run-" << index << "\"><summary>" << run.not_run.size()
       << (run.not_run.size() == 1 ? " benchmark" : " benchmarks") << " not run on this machine</summary>\n";
  for (const auto& reason : not_run_reasons(run)) {
    page << "<p>" << html_text(reason.sentence) << ":</p><ul>";
    for (const NotRunRow* row : reason.rows) {
      page << "<li>" << html_text(row->label) << "</li>";
    }
    page << "</ul>\n";
  }
  page << "</details>\n";
}

// What each flag shown in the tables means (text/flag_legend.h), only those shown.
void write_flag_legend(Page& page, const ReportModel& model) {
  const auto present = flags_present(model.runs);
  bool any = false;
  for (const auto& m : flag_meanings()) {
    if (std::find(present.begin(), present.end(), m.flag) == present.end()) continue;
    if (!any) page << "<dl class=\"gbx-legend\" id=\"flag-legend\"><dt class=\"gbx-legend-title\">Flags</dt><dd></dd>";
    any = true;
    page << "<dt><code>" << html_text(m.flag) << "</code></dt><dd>" << html_text(m.meaning) << "</dd>";
  }
  if (any) page << "</dl>\n";
}

void write_results(Page& page, const ReportModel& model) {
  page << "<section id=\"results\">\n<h2>Results</h2>\n<p class=\"gbx-note\">Medians with their 95% intervals; "
          "click a column to sort. <label class=\"gbx-columns\"><input type=\"checkbox\" class=\"gbx-all-columns\"> "
          "show every column (CV, p99, error, memory, GB/s)</label></p>\n";
  for (std::size_t i = 0; i < model.runs.size(); ++i) {
    if (model.runs.size() > 1) page << "<h3>Run " << html_text(model.runs[i].label) << "</h3>\n";
    html::write_benchmark_table(page, model.runs[i], i);
    write_not_run(page, model.runs[i], i);
  }
  write_flag_legend(page, model);
  page << "</section>\n";
}

void write_trend(Page& page, const ReportModel& model, const std::vector<Chart>& charts) {
  page << "<section id=\"trend\">\n<h2>Trend over " << model.runs.size()
       << " runs, by date</h2>\n<p>Each benchmark's median with its interval, one point per run, oldest first; a "
          "dashed rule marks a change point where one was found.</p>\n<ul>\n";
  for (const auto& series : model.trends) page << "<li>" << html_text(series.sentence) << "</li>\n";
  page << "</ul>\n";
  for (const Chart* chart : of_kind(charts, "trend")) page << html::chart_container(*chart);
  page << "</section>\n";
}

void write_pareto(Page& page, const ReportModel& model, const std::vector<Chart>& charts) {
  const auto groups = html::shown_pareto_groups(model);
  if (groups.empty()) return;
  page << "<section id=\"pareto\">\n<h2>Pareto fronts (run " << html_text(pareto_run(model).label)
       << ")</h2>\n<p>Latency, error and memory, all lower-is-better. A variant is dominated when another is at "
          "least as good on every objective and better on one, latency counting only when the intervals "
          "separate; the frontier is what is left. Variants that failed their accuracy check are shown apart and "
          "never on the frontier.</p>\n";
  const auto pareto = of_kind(charts, "pareto");
  for (std::size_t i = 0; i < groups.size(); ++i) {
    page << "<h3>" << html_text(groups[i]->problem) << "</h3>\n"
         << html::chart_container(*pareto[i]) << "<p class=\"gbx-sentence\">" << html_text(pareto_sentence(*groups[i]))
         << "</p>\n";
    html::write_pareto_table(page, *groups[i]);
  }
  page << "</section>\n";
}

}  // namespace

HtmlAssets read_assets(const std::string& node_modules) {
  return HtmlAssets{read_file(node_modules + "/vega/build/vega.min.js"),
                    read_file(node_modules + "/vega-lite/build/vega-lite.min.js")};
}

std::string html_report(const ReportModel& model, const HtmlAssets& assets) {
  std::vector<Chart> charts = report_charts(model);
  std::string text;
  Page page(text);
  html::write_page_start(page, model.runs.size() == 1 && !model.runs[0].run_id.empty()
                                   ? "gbx report " + html_text(model.runs[0].run_id)
                                   : std::string("gbx report"));
  page << "<h1>gbx report: " << model.runs.size() << (model.runs.size() == 1 ? " run" : " runs") << "</h1>\n<nav>"
       << "<a href=\"#summary\">Summary</a><a href=\"#results\">Results</a>";
  if (model.comparison) page << "<a href=\"#comparison\">Comparison</a>";
  if (!model.trends.empty()) page << "<a href=\"#trend\">Trend</a>";
  page << "<a href=\"#distributions\">Distributions</a>";
  if (!of_kind(charts, "pareto").empty()) page << "<a href=\"#pareto\">Pareto</a>";
  if (!of_kind(charts, "throughput").empty()) page << "<a href=\"#throughput\">Throughput</a>";
  if (!of_kind(charts, "load").empty()) page << "<a href=\"#load\">Under load</a>";
  if (!of_kind(charts, "scaling").empty()) page << "<a href=\"#scaling\">Scaling</a>";
  page << "<a href=\"#runs\">Environment and protocol</a></nav>\n";

  write_summary(page, model);
  write_results(page, model);
  if (model.comparison) html::write_comparison(page, model, *of_kind(charts, "compare").front());
  if (!model.trends.empty()) write_trend(page, model, charts);
  page << "<section id=\"distributions\">\n<h2>Distributions of the raw samples</h2>\n<p>The empirical CDF of "
          "each benchmark's samples: the fraction of runs that took at most t. A vertical rise is a cluster of "
          "equal times, a long flat tail a few slow runs."
       << (model.runs.size() > 1 ? " One line per run." : "") << "</p>\n";
  for (const Chart* chart : of_kind(charts, "ecdf")) page << html::chart_container(*chart);
  page << "</section>\n";
  write_pareto(page, model, charts);
  if (const auto throughput = of_kind(charts, "throughput"); !throughput.empty()) {
    page << "<section id=\"throughput\">\n<h2>Throughput against the peak</h2>\n<p>Achieved GFLOP/s at the median "
            "against arithmetic intensity, under the roofs that the recorded peak FLOP/s and bandwidth draw; "
            "benchmarks that only move data are shown as a fraction of the peak bandwidth.</p>\n"
         << html::chart_container(*throughput.front()) << "</section>\n";
  }
  if (const auto load = of_kind(charts, "load"); !load.empty()) {
    page << "<section id=\"load\">\n<h2>Under load</h2>\n<p class=\"gbx-note\">p99 latency against throughput as "
            "concurrency (c=N, closed loop) or offered load (open loop, a fraction of the measured capacity) "
            "rises; the dashed rule is the latency bound. See docs/load.md.</p>\n";
    for (const Chart* chart : load) page << html::chart_container(*chart);
    for (const Chart* chart : of_kind(charts, "load_offered")) page << html::chart_container(*chart);
    page << "</section>\n";
  }
  if (const auto scaling = of_kind(charts, "scaling"); !scaling.empty()) {
    page << "<section id=\"scaling\">\n<h2>Scaling</h2>\n<p class=\"gbx-note\">Median latency and throughput "
            "against a numeric parameter axis (gbx.axes), one chart per problem, one line per variant.</p>\n";
    for (const Chart* chart : scaling) page << html::chart_container(*chart);
    page << "</section>\n";
  }
  page << "<section id=\"runs\">\n<h2>Environment and protocol</h2>\n";
  for (std::size_t i = 0; i < model.runs.size(); ++i) html::write_run_details(page, model.runs[i], i);
  page << "</section>\n";

  html::write_page_end(page, charts, assets);
  return text;
}

}  // namespace gbx::tools

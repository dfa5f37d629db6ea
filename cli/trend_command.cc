#include "cli/trend_command.h"

#include <cmath>
#include <ostream>
#include <sstream>

#include "record/record_reader.h"
#include "report/report_model.h"
#include "stats/change_point.h"
#include "text/escape.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

struct Found {
  const TrendSeries* series = nullptr;
  std::vector<ChangePoint> points;
  bool regression = false;  // the latest segment is slower than the one before it
};

std::string change_text(const ChangePoint& p) {
  return format_percent(std::fabs(p.relative_change)) + (p.relative_change > 0.0 ? " slower" : " faster");
}

}  // namespace

int trend_command(const TrendOptions& options, std::ostream& out, std::ostream& err) {
  if (options.format != "console" && options.format != "markdown") {
    err << "gbx trend: invalid value '" << options.format << "' for --format: expected console or markdown\n";
    return 2;
  }
  if (options.inputs.size() < 3) {
    err << "gbx trend: " << options.inputs.size()
        << " record(s) given; a trend needs three or more (gbx compare takes two)\n";
    return 2;
  }
  if (!(options.alpha > 0.0 && options.alpha < 1.0)) {
    err << "gbx trend: invalid value for --alpha: expected a level in (0, 1)\n";
    return 2;
  }
  ReportModel model;
  try {
    model = build_report_model(options.inputs);
  } catch (const BadRecord& error) {
    err << "gbx trend: " << error.what() << "\n";
    return 2;
  }

  std::vector<Found> found;
  std::size_t too_short = 0;
  for (const TrendSeries& series : model.trends) {
    if (series.points.size() < 3) {
      ++too_short;
      continue;
    }
    Found f{&series, series_change_points(series, options.alpha, options.seed), false};
    f.regression = !f.points.empty() && f.points.back().relative_change > 0.0;
    found.push_back(std::move(f));
  }

  const bool markdown = options.format == "markdown";
  std::size_t regressions = 0;
  std::size_t with_change = 0;
  if (markdown) {
    out << "## Change points\n\n";
  }
  std::ostringstream rows;
  for (const Found& f : found) {
    if (f.regression) ++regressions;
    if (f.points.empty()) continue;
    ++with_change;
    for (const ChangePoint& p : f.points) {
      const RunReport& run = model.runs[f.series->points[p.index].run];
      const std::string commit = run_commit(run);
      const bool latest_regression = f.regression && &p == &f.points.back();
      if (markdown) {
        rows << "| " << markdown_cell(f.series->label) << " | " << change_text(p) << " | " << markdown_cell(run.label)
             << " | " << (commit.empty() ? "-" : markdown_code(commit)) << " | " << format_duration(p.before_median)
             << " → " << format_duration(p.after_median) << " | " << format_three_digits_compact(p.p_value) << " |"
             << (latest_regression ? " **regression**" : "") << "\n";
      } else {
        rows << terminal_text(f.series->label) << ": " << change_text(p) << " from run " << terminal_text(run.label)
             << (commit.empty() ? "" : " (commit " + terminal_text(commit) + ")") << ", "
             << format_duration(p.before_median) << " -> " << format_duration(p.after_median)
             << ", p = " << format_three_digits_compact(p.p_value) << (latest_regression ? "  REGRESSION" : "") << "\n";
      }
    }
  }
  if (markdown && with_change > 0) {
    out << "| Benchmark | Change | From run | Commit | Median before → after | p |\n"
        << "|---|---|---|---|---|---|\n";
  }
  out << rows.str();
  if (markdown && with_change > 0) out << "\n";
  out << with_change << " of " << found.size() << " benchmarks changed level over " << model.runs.size()
      << " runs (E-divisive means, permutation test at alpha " << format_three_digits_compact(options.alpha)
      << ", steps within the runs' intervals ignored)";
  if (too_short > 0) out << "; " << too_short << " measured in fewer than three runs, not analysed";
  out << (markdown ? ".\n" : "\n");
  if (regressions > 0) {
    out << (markdown ? "\n**" : "") << regressions << (regressions == 1 ? " benchmark is" : " benchmarks are")
        << " slower in the latest runs than before" << (markdown ? "**\n" : "\n");
    return 1;
  }
  return 0;
}

}  // namespace gbx::tools

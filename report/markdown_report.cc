#include "report/markdown_report.h"

#include "report/comparison_markdown.h"
#include "report/pr_comment.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "stats/statistics.h"
#include "text/escape.h"
#include "text/flag_legend.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

// The summary lists this many slower benchmarks at most; the comparison holds them all.
constexpr std::size_t kSummaryItems = 5;

// Record text (names, host, branch, command) is data: see text/escape.h.
std::string text(const std::string& raw) { return markdown_text(raw); }
std::string cell(const std::string& raw) { return markdown_cell(raw); }
std::string code(const std::string& raw) { return markdown_code(raw); }

template <typename T, typename F>
std::string or_dash(const std::optional<T>& value, F format) {
  return value ? format(*value) : "-";
}

std::string interval_text(const std::optional<double>& lower, const std::optional<double>& upper) {
  if (!lower || !upper) return "-";
  return "[" + format_duration(*lower) + ", " + format_duration(*upper) + "]";
}

std::string accuracy_text(const BenchmarkRow& row) {
  if (!row.accuracy_passed) return "not checked";
  const std::string error = or_dash(row.rel_l2_error, format_scientific);
  return error + (*row.accuracy_passed ? " passed" : " **FAILED**");
}

std::string memory_text(const BenchmarkRow& row) {
  return row.memory_bytes ? format_bytes(*row.memory_bytes) + " " + row.memory_kind : "-";
}

std::string flags_text(const BenchmarkRow& row) {
  std::vector<std::string> names;
  for (const auto& flag : row.flags) {
    if (std::find(names.begin(), names.end(), flag.flag) == names.end()) names.push_back(flag.flag);
  }
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

void write_facts(std::ostream& out, const char* title, const std::vector<Fact>& facts) {
  if (facts.empty()) return;
  out << "**" << title << ":** ";
  for (std::size_t i = 0; i < facts.size(); ++i)
    out << (i == 0 ? "" : "; ") << text(facts[i].first) << " " << text(facts[i].second);
  out << "\n\n";
}

// The run's file, date, checksum, environment and protocol: last, for the reader who needs them.
void write_run_details(std::ostream& out, const RunReport& run) {
  out << "### Run " << text(run.label) << ": " << (run.run_id.empty() ? "no run id" : code(run.run_id)) << "\n\n";
  out << "File " << code(run.path) << " | created " << (run.created.empty() ? "unknown" : text(run.created))
      << " | checksum: " << text(run.checksum_status) << "\n\n";
  write_facts(out, "Environment", run.environment);
  write_facts(out, "Protocol", run.protocol);
  if (!run.missing_facts.empty()) {
    out << "**Missing facts** (plain Google Benchmark JSON, without a gbx section):\n\n";
    for (const auto& fact : run.missing_facts) out << "- " << text(fact) << "\n";
    out << "\n";
  }
}

void write_results_table(std::ostream& out, const RunReport& run) {
  if (run.interrupted) out << "> **Interrupted:** the run was stopped; only finished benchmarks are kept.\n\n";
  out << "| Benchmark | Median | 95% CI | CV | p99 | n | Error (rel. L2) | Memory | GFLOP/s | GB/s | Of peak | Flags "
         "|\n"
      << "|---|---:|---|---:|---:|---:|---|---|---:|---:|---:|---|\n";
  std::vector<const BenchmarkRow*> skipped;
  for (const auto& row : run.benchmarks) {
    if (row.skipped) {
      skipped.push_back(&row);
      continue;
    }
    out << "| " << cell(row.label) << " | " << format_duration(row.median) << " | "
        << interval_text(row.median_lower, row.median_upper) << " | " << or_dash(row.cv, format_percent) << " | "
        << or_dash(row.p99, format_duration) << " | " << row.count << " | " << accuracy_text(row) << " | "
        << cell(memory_text(row)) << " | " << or_dash(row.gflops, format_three_digits_compact) << " | "
        << or_dash(row.gbytes, format_three_digits_compact) << " | " << or_dash(row.fraction_of_peak, format_percent)
        << " | " << cell(flags_text(row)) << " |\n";
  }
  out << "\n";
  // Records from before gbx.not_run list a benchmark that could not run among the others.
  for (const auto* row : skipped) out << "- skipped: " << code(row->label) << ": " << text(row->skip_reason) << "\n";
  if (!skipped.empty()) out << "\n";
  for (const auto& reason : not_run_reasons(run)) {
    out << text(reason.sentence) << ":\n\n";
    for (const NotRunRow* row : reason.rows) {
      out << "- " << code(row->label) << "\n";
    }
    out << "\n";
  }
}

// What each flag in the tables means (text/flag_legend.h), only those shown.
void write_flag_legend(std::ostream& out, const ReportModel& model) {
  const auto present = flags_present(model.runs);
  bool any = false;
  for (const auto& m : flag_meanings()) {
    if (std::find(present.begin(), present.end(), m.flag) == present.end()) continue;
    if (!any) out << "**Flags:**\n\n";
    any = true;
    out << "- " << code(m.flag) << ": " << text(m.meaning) << "\n";
  }
  if (any) out << "\n";
}

void write_results(std::ostream& out, const ReportModel& model) {
  out << "## Results\n\nMedians with their 95% intervals, each within one process (the spread between processes "
         "is not in it: `gbx ab` measures it).\n\n";
  for (const auto& run : model.runs) {
    if (model.runs.size() > 1) out << "### Run " << text(run.label) << "\n\n";
    write_results_table(out, run);
  }
  write_flag_legend(out, model);
}

// Counts first, as the HTML report's cards: benchmarks, not run, failures, regressions, frontiers.
void write_summary(std::ostream& out, const ReportModel& model) {
  const RunReport& last = model.runs.back();
  const auto [measured, skipped, failed, flagged] = count_rows(last);
  out << "## Summary\n\n";
  for (const auto& run : model.runs) {
    out << "- Run " << text(run.label) << ": " << code(run.path) << ", "
        << (run.created.empty() ? "date unknown" : text(run.created)) << ", checksum " << text(run.checksum_status)
        << (run.interrupted ? ", **interrupted**: only finished benchmarks are kept" : "") << "\n";
  }
  const std::string of_run = model.runs.size() > 1 ? " (run " + text(last.label) + ")" : "";
  out << "- " << measured << (measured == 1 ? " benchmark" : " benchmarks") << " measured" << of_run << ", " << failed
      << " failed accuracy, " << flagged << " flagged\n";
  if (skipped > 0) out << "- " << skipped << (skipped == 1 ? " benchmark" : " benchmarks") << " skipped\n";
  for (const auto& reason : not_run_reasons(last)) out << "- " << text(reason.sentence) << "\n";
  if (model.comparison) {
    std::vector<const ComparisonRow*> slower;
    for (const auto& row : model.comparison->rows) {
      if (row.verdict == Verdict::slower) slower.push_back(&row);
    }
    // Every row once: the undecided ones too, which "0 slower and 0 faster" alone would hide.
    const VerdictCounts verdicts = count_verdicts(*model.comparison);
    const std::string kinds = undecided_kinds(verdicts);
    out << "- Against " << text(model.runs[0].label) << ": " << verdicts.slower << " slower, " << verdicts.faster
        << " faster, " << verdicts.same << " same, " << verdicts.undecided() << " undecided"
        << (kinds.empty() ? "" : " (" + kinds + ")")
        << (model.comparison->compatible() ? "" : " (**the records are not compatible**)") << "\n";
    if (verdicts.undecided() > 0) out << "  - Undecided: " << text(undecided_reasons(verdicts)) << "\n";
    // A few, as the HTML summary: the comparison below lists them all.
    for (std::size_t i = 0; i < slower.size() && i < kSummaryItems; ++i)
      out << "  - " << text(slower[i]->sentence) << "\n";
    if (slower.size() > kSummaryItems)
      out << "  - and " << slower.size() - kSummaryItems << " more in the comparison\n";
  }
  bool any = false;
  for (const auto& group : model.pareto) {
    if (group.variants.size() + group.failed.size() < 2) continue;
    if (!any) out << "- Pareto frontiers (run " << text(pareto_run(model).label) << "):\n";
    any = true;
    std::string names;
    for (const auto& v : group.variants) {
      if (v.on_frontier) names += (names.empty() ? "" : ", ") + pareto_label(group, v.name);
    }
    out << "  - " << text(group.problem) << ": " << text(names.empty() ? "no variant on the frontier" : names) << "\n";
  }
  out << "\n";
}

void write_pareto(std::ostream& out, const ReportModel& model) {
  const RunReport& run = pareto_run(model);
  std::vector<const ParetoGroup*> groups;
  for (const auto& group : model.pareto) {
    if (group.variants.size() + group.failed.size() >= 2) groups.push_back(&group);
  }
  if (groups.empty()) return;
  out << "## Pareto fronts (run " << text(run.label) << ")\n\n"
      << "Latency, error and memory, all lower-is-better; a variant is dominated when another is at least as good "
         "on every objective and better on one, latency counting only when the intervals separate.\n\n";
  for (const auto* group : groups) {
    out << "### " << text(group->problem) << "\n\n"
        << "| Variant | Median latency | 95% CI | Error (rel. L2) | Memory | Frontier | P(frontier) | Dominated by |\n"
        << "|---|---:|---|---:|---:|---|---:|---|\n";
    for (const auto& v : group->variants) {
      std::string dominated_by = "-";
      if (v.dominated_by) dominated_by = pareto_label(*group, *v.dominated_by);
      out << "| " << cell(v.variant) << " | " << format_duration(v.latency_median) << " | "
          << interval_text(v.latency_lower, v.latency_upper) << " | " << or_dash(v.error, format_scientific) << " | "
          << or_dash(v.memory_bytes, format_bytes) << " | " << (v.on_frontier ? "**yes**" : "no") << " | "
          << format_fixed(v.frontier_probability, 2) << " | " << cell(dominated_by) << " |\n";
    }
    for (const auto& f : group->failed) {
      out << "| " << cell(f.variant) << " | " << or_dash(median(f.latency_samples), format_duration) << " | - | "
          << or_dash(f.error, format_scientific) << " | " << or_dash(f.memory_bytes, format_bytes)
          << " | failed accuracy | - | " << cell(f.failure) << " |\n";
    }
    out << "\n" << text(pareto_sentence(*group)) << "\n\n";
  }
}

void write_trend(std::ostream& out, const ReportModel& model) {
  out << "## Trend over " << model.runs.size() << " runs, by date\n\n| Benchmark |";
  for (const std::size_t run : model.by_date) {
    out << " " << cell(model.runs[run].label);
    if (!model.runs[run].created.empty()) out << " (" << cell(model.runs[run].created) << ")";
    out << " |";
  }
  out << " Change |\n|---|";
  for (std::size_t i = 0; i < model.by_date.size(); ++i) out << "---|";
  out << "---:|\n";
  for (const auto& series : model.trends) {
    out << "| " << cell(series.label) << " |";
    for (const std::size_t run : model.by_date) {
      const auto point =
          std::find_if(series.points.begin(), series.points.end(), [&](const TrendPoint& p) { return p.run == run; });
      if (point == series.points.end()) {
        out << " - |";
      } else {
        out << " " << format_duration(point->median) << " " << interval_text(point->lower, point->upper) << " |";
      }
    }
    const double first = series.points.front().median;
    const double last = series.points.back().median;
    std::string change = "-";
    if (series.points.size() > 1 && first > 0.0) change = format_signed_percent(last / first - 1.0);
    out << " " << change << " |\n";
  }
  out << "\n";
  for (const auto& series : model.trends) out << "- " << text(series.sentence) << "\n";
  out << "\n";
  bool any = false;
  for (const auto& series : model.trends) {
    for (const TrendChangePoint& p : series.change_points) {
      if (!any)
        out << "Change points (E-divisive means, permutation test; steps within the runs' intervals ignored):\n\n";
      any = true;
      const RunReport& run = model.runs[series.points[p.index].run];
      const std::string commit = run_commit(run);
      out << "- " << text(series.label) << ": " << format_percent(std::fabs(p.relative_change))
          << (p.relative_change > 0.0 ? " slower" : " faster") << " from run " << text(run.label);
      if (!commit.empty()) out << " (commit " << code(commit) << ")";
      out << ", p = " << format_three_digits_compact(p.p_value) << "\n";
    }
  }
  if (any) out << "\n";
}

template <typename Write>
std::string captured(Write write) {
  std::ostringstream text;
  write(text);
  return text.str();
}

void write_environment(std::ostream& out, const ReportModel& model) {
  out << "## Environment and protocol\n\n";
  for (const auto& run : model.runs) write_run_details(out, run);
}

// Two records: a pull-request comment (report/pr_comment.h), within GitHub's limit. The verdict comes
// first; then the sections in the usual order, each kept whole when it fits, the comparison's rows
// before the per-run tables, which the comment can do without.
void write_comparison_report(std::ostream& out, const ReportModel& model) {
  const std::string title = "# gbx report\n\n";
  const std::string summary = captured([&](std::ostream& o) { write_summary(o, model); });
  const std::string environment = captured([&](std::ostream& o) { write_environment(o, model); });
  constexpr std::size_t kReserve = 1500;  // the verdict and the note of what was left out
  const std::size_t fixed = title.size() + summary.size() + environment.size() + kReserve;
  const std::size_t room = fixed < kGithubCommentLimit ? kGithubCommentLimit - fixed : 0;
  ComparisonComment comment = comparison_comment(*model.comparison, model.runs[0].label, model.runs[1].label, room);
  std::size_t left = room - std::min(room, comment.body.size());
  const auto optional = [&](std::string section, const std::string& what) {
    if (section.size() <= left) {
      left -= section.size();
      return section;
    }
    if (!section.empty()) comment.left_out.push_back(what);
    return std::string();
  };
  const std::string pareto = optional(captured([&](std::ostream& o) { write_pareto(o, model); }), "the Pareto fronts");
  const std::string results =
      optional(captured([&](std::ostream& o) { write_results(o, model); }), "the per-run results tables");
  const std::string load = optional(model.load_knees.empty() ? "" : model.load_knees + "\n", "the load section");
  out << title << comment.verdict << left_out_note(comment.left_out) << summary << results << comment.body << pareto
      << load << environment;
}

}  // namespace

void write_markdown_report(std::ostream& out, const ReportModel& model) {
  if (model.comparison) {
    write_comparison_report(out, model);
    return;
  }
  // The results first, as in the HTML report (issue 14); environment and protocol last.
  out << "# gbx report\n\n";
  write_summary(out, model);
  write_results(out, model);
  if (!model.trends.empty()) write_trend(out, model);
  write_pareto(out, model);
  if (!model.load_knees.empty()) out << model.load_knees << "\n";  // "## Load", already escaped
  write_environment(out, model);
}

}  // namespace gbx::tools

#include "cli/compare_command.h"

#include "report/comparison_markdown.h"
#include "report/pr_comment.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>

#include "analysis/run_analysis.h"
#include "cli/ab_output.h"
#include "cli/terminal_colour.h"
#include "record/record_reader.h"
#include "stats/bootstrap.h"
#include "stats/comparison.h"
#include "text/benchmark_name.h"
#include "text/escape.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

nlohmann::json interval_json(const BootstrapResult& b) {
  if (!b.interval) return nullptr;
  return {{"estimate", b.estimate}, {"lower", b.interval->lower}, {"upper", b.interval->upper}};
}

void print_console(std::ostream& out, const std::vector<ComparisonRow>& rows, bool colour) {
  std::size_t width = 20;
  std::vector<std::string> labels;
  labels.reserve(rows.size());
  for (const auto& row : rows) labels.push_back(terminal_text(row.label));
  for (const auto& label : labels) width = std::max(width, label.size() + 2);
  out << std::string(width, ' ').replace(0, 9, "Benchmark")
      << "      Base      Cand   Ratio [95% CI]          p (BH)   Verdict\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ComparisonRow& row = rows[i];
    std::string line = labels[i];
    line.append(width - line.size(), ' ');
    char buffer[160];
    const double lower = row.ratio ? row.ratio->lower : NAN;
    const double upper = row.ratio ? row.ratio->upper : NAN;
    // Red slower, green faster, yellow what cannot be decided yet; "same" plain.
    const char* sgr = row.verdict == Verdict::slower || candidate_inaccurate(row) ? "31"
                      : row.verdict == Verdict::faster                            ? "32"
                      : row.verdict == Verdict::same                              ? nullptr
                                                                                  : "33";
    const std::string verdict = coloured(verdict_text(row), sgr, colour && sgr != nullptr);
    std::snprintf(buffer, sizeof buffer, "%9s %9s   %.3f [%.3f, %.3f]   %-8s  %s%s",
                  format_duration(shown_median(row.base_processes, row.base_median)).c_str(),
                  format_duration(shown_median(row.candidate_processes, row.candidate_median)).c_str(),
                  row.ratio ? row.ratio->ratio : NAN, lower, upper,
                  (row.adjusted_p < 0.001 ? std::string("<0.001") : format_fixed(row.adjusted_p, 3)).c_str(),
                  verdict.c_str(),
                  row.incompatible         ? " (incompatible)"
                  : !row.throttled.empty() ? " (throttled)"
                                           : "");
    out << line << buffer << "\n";
  }
  out << "\n";
  for (const auto& row : rows) out << terminal_text(row.sentence) << "\n";
}

}  // namespace

int compare_records(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  if (options.format != "console" && options.format != "markdown" && options.format != "json") {
    err << options.tool << ": invalid value '" << options.format
        << "' for --format: expected console, markdown or json\n";
    return 2;
  }
  LoadedRecord base;
  LoadedRecord candidate;
  try {
    base = load_record(options.base);
    candidate = load_record(options.candidate);
  } catch (const BadRecord& error) {
    err << options.tool << ": " << error.what() << "\n";
    return 2;
  }
  return report_comparison(options, base, candidate, out, err);
}

int report_comparison(const CompareOptions& options, const LoadedRecord& base, const LoadedRecord& candidate,
                      std::ostream& out, std::ostream& err) {
  // A valid record of no benchmarks, or whose benchmarks were all skipped (no GPU) or failed: not
  // bad input, but no evidence.
  for (const LoadedRecord* record : {&base, &candidate}) {
    if (record->benchmarks.empty()) {
      const bool none = record->json["benchmarks"].empty();
      err << options.tool << ": " << record->path
          << (none ? ": the record holds no benchmarks" : ": every benchmark was skipped or failed")
          << ", so there is nothing to compare; the gate cannot decide\n";
      return 3;
    }
  }
  // Two records of one interleaved `gbx ab` run: the pairing of their blocks decides (ab/records.h).
  if (paired_records(base, candidate) && gate_differences(base.json, candidate.json).empty()) {
    return print_paired(out, options.format, paired_from_records(base, candidate, parse_pair_test(options.pair_test)),
                        options.base, options.candidate);
  }
  const Comparison comparison = compare_loaded(base, candidate, options.noise_band, options.fdr);
  const auto& rows = comparison.rows;
  const auto& differences = comparison.differences;
  if (rows.empty()) {
    err << options.tool << ": " << options.base << " and " << options.candidate
        << " have no benchmark name in common\n";
    return 2;
  }
  const bool compatible = comparison.compatible();
  if (!compatible) {
    err << options.tool << ": the records are not compatible; these facts differ:\n";
    std::size_t width = 4;
    for (const auto& d : differences) width = std::max(width, d.what.size());
    for (const auto& d : differences) {
      err << "  " << terminal_text(d.what) << std::string(width - d.what.size(), ' ')
          << "  base: " << terminal_text(d.base) << "  candidate: " << terminal_text(d.candidate) << "\n";
    }
    if (!options.allow_incompatible) {
      err << "Timings from different hardware, software or protocols differ for reasons other than the change "
             "under test. Compare records from matching setups, or pass --allow-incompatible to see the numbers "
             "anyway, every row marked incompatible.\n";
      return 2;
    }
  }
  // A candidate that failed its accuracy check where the base passed fails the gate as a slower one does.
  std::vector<Verdict> verdicts;
  verdicts.reserve(rows.size());
  for (const auto& row : rows) verdicts.push_back(candidate_inaccurate(row) ? Verdict::slower : row.verdict);

  if (options.format == "json") {
    nlohmann::json j;
    j["base"] = options.base;
    j["candidate"] = options.candidate;
    j["compatible"] = compatible;
    j["fewer_facts"] = comparison.fewer_facts;
    j["noise_band"] = options.noise_band;
    j["fdr_q"] = options.fdr;
    j["differences"] = nlohmann::json::array();
    for (const auto& d : differences)
      j["differences"].push_back({{"what", d.what}, {"base", d.base}, {"candidate", d.candidate}});
    j["only_in_base"] = comparison.only_in_base;
    j["only_in_candidate"] = comparison.only_in_candidate;
    j["rows"] = nlohmann::json::array();
    for (const auto& row : rows) {
      nlohmann::json r = {
          {"name", row.name},
          {"shown_name", row.label},
          {"base_median", interval_json(row.base_median)},
          {"candidate_median", interval_json(row.candidate_median)},
          {"unit", row.evidence.process_level() ? "process" : "sample"},
          {"processes", {{"base", row.evidence.base_processes}, {"candidate", row.evidence.candidate_processes}}},
          {"samples", {{"base", row.evidence.base_samples}, {"candidate", row.evidence.candidate_samples}}},
          {"base_process_level", hierarchical_json(row.base_processes)},
          {"candidate_process_level", hierarchical_json(row.candidate_processes)},
          {"test", row.test_name},
          {"p", row.p_value},
          {"mann_whitney_p", row.test.p_value},
          {"mann_whitney_exact", row.test.exact},
          {"p_adjusted", row.adjusted_p},
          {"hodges_lehmann_shift_seconds", row.shift},
          {"cliffs_delta", row.delta},
          {"verdict", verdict_text(row)},
          {"timing_verdict", to_string(row.verdict)},
          {"accuracy_failure",
           {{"base", row.base_accuracy_failure.empty() ? nlohmann::json() : nlohmann::json(row.base_accuracy_failure)},
            {"candidate", row.candidate_accuracy_failure.empty() ? nlohmann::json()
                                                                 : nlohmann::json(row.candidate_accuracy_failure)}}},
          {"incompatible", row.incompatible},
          {"throttled", row.throttled.empty() ? nlohmann::json() : nlohmann::json(row.throttled)},
          {"sentence", row.sentence}};
      // The smallest change this row could have detected at 90% power (two-sided 5%), from its interval.
      r["mde"] = row.ratio && row.ratio->lower > 0.0 && row.ratio->upper > row.ratio->lower
                     ? nlohmann::json(std::expm1((1.959964 + 1.281552) / 1.959964 *
                                                 std::log(row.ratio->upper / row.ratio->lower) / 2.0))
                     : nlohmann::json();
      r["ratio"] = row.ratio ? nlohmann::json{{"estimate", row.ratio->ratio},
                                              {"lower", row.ratio->lower},
                                              {"upper", row.ratio->upper},
                                              {"level", row.ratio->level},
                                              {"method", row.ratio->method}}
                             : nlohmann::json();
      j["rows"].push_back(std::move(r));
    }
    out << j.dump(2) << "\n";
  } else {
    if (options.format == "markdown") {
      // The pull-request comment, as gbx report writes it for two records (report/pr_comment.h).
      const ComparisonComment comment =
          comparison_comment(comparison, options.base, options.candidate, kGithubCommentLimit - 1500);
      out << comment.verdict << left_out_note(comment.left_out) << comment.body;
      return gate_exit_code(verdicts);
    } else {
      print_console(out, rows, options.colour);
    }
    // The same lines in either format, each escaped for where it is read.
    const bool markdown = options.format == "markdown";
    const auto shown = [markdown](const std::string& raw) {
      return markdown ? markdown_code(raw) : terminal_text(raw);
    };
    for (const auto& name : comparison.only_in_base) {
      out << (markdown ? "- " : "") << "only in " << shown(options.base) << ": " << shown(shown_benchmark_name(name))
          << "\n";
    }
    for (const auto& name : comparison.only_in_candidate) {
      out << (markdown ? "- " : "") << "only in " << shown(options.candidate) << ": "
          << shown(shown_benchmark_name(name)) << "\n";
    }
    if (comparison.fewer_facts) out << "note: " << kFewerFactsNote << "\n";
  }
  return gate_exit_code(verdicts);
}

}  // namespace gbx::tools

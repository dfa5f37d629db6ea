#include "report/html_report_tables.h"

#include <cmath>
#include <cstdio>

#include "stats/statistics.h"
#include "text/benchmark_name.h"
#include "text/escape.h"
#include "text/flag_legend.h"
#include "text/format.h"

namespace gbx::embedded {
extern const std::string_view report_css;  // report/assets/report.css
extern const std::string_view report_js;   // report/assets/report.js
}  // namespace gbx::embedded

namespace gbx::tools::html {

void write_page_start(Page& page, const std::string& title_html) {
  page << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" << title_html
       << "</title>\n<style>" << embedded::report_css << "</style>\n</head>\n<body>\n";
}

void write_page_end(Page& page, std::vector<Chart>& charts, const HtmlAssets& assets) {
  using nlohmann::json;
  page << "<script type=\"application/json\" id=\"gbx-specs\">{";
  for (std::size_t i = 0; i < charts.size(); ++i) {
    if (i > 0) page << ',';
    append_script_text(page.text(), json(charts[i].id).dump(), ScriptContent::json);
    page << ':';
    append_script_text(page.text(), charts[i].spec.dump(-1, ' ', false, json::error_handler_t::replace),
                       ScriptContent::json);
    charts[i].spec = nullptr;
  }
  page << "}</script>\n<script>";
  append_script_text(page.text(), assets.vega, ScriptContent::code);
  page << "</script>\n<script>";
  append_script_text(page.text(), assets.vega_lite, ScriptContent::code);
  page << "</script>\n<script>";
  append_script_text(page.text(), std::string(embedded::report_js), ScriptContent::code);
  page << "</script>\n</body>\n</html>\n";
}

std::string cell(const std::string& text, const std::string& sort_key, const std::string& title, bool secondary) {
  std::string td = secondary ? "<td class=\"gbx-secondary\"" : "<td";
  if (!sort_key.empty()) td += " data-sort=\"" + html_text(sort_key) + "\"";
  if (!title.empty()) td += " title=\"" + html_text(title) + "\"";
  return td + ">" + html_text(text) + "</td>";
}

std::string sort_key(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return "";
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", *value);
  return text;
}

std::string header_row(const std::vector<Column>& columns) {
  std::string row = "<tr>";
  for (const auto& column : columns) {
    row += std::string("<th scope=\"col\" tabindex=\"0\" data-type=\"") + (column.numeric ? "number" : "text") + "\"" +
           (column.secondary ? " class=\"gbx-secondary\"" : "") + ">" + html_text(column.name) + "</th>";
  }
  return row + "</tr>";
}

std::string chart_container(const Chart& chart) {
  std::string div =
      "<div class=\"gbx-chart\" id=\"" + html_text(chart.id) + "\" data-kind=\"" + html_text(chart.kind) + "\"";
  for (const auto& [key, value] : chart.attributes) div += " " + key + "=\"" + html_text(value) + "\"";
  return div + "></div>\n";
}

std::string interval_text(const std::optional<double>& lower, const std::optional<double>& upper) {
  if (!lower || !upper) return "-";
  return "[" + format_duration(*lower) + ", " + format_duration(*upper) + "]";
}

static void write_facts(Page& page, const char* title, const std::vector<Fact>& facts) {
  if (facts.empty()) return;
  page << "<details><summary>" << title << "</summary><table class=\"gbx-facts\"><tbody>\n";
  for (const auto& [label, value] : facts) {
    page << "<tr><th scope=\"row\">" << html_text(label) << "</th><td>" << html_text(value) << "</td></tr>\n";
  }
  page << "</tbody></table></details>\n";
}

void write_benchmark_table(Page& page, const RunReport& run, std::size_t index) {
  page << "<table class=\"gbx-benchmarks\" data-run=\"" << index << "\">\n<thead>"
       << header_row({{"Benchmark", false, false},
                      {"Median", true, false},
                      {"95% CI", true, false},
                      {"CV", true, true},
                      {"p99", true, true},
                      {"n", true, false},
                      {"Error (rel. L2)", true, true},
                      {"Accuracy", false, false},
                      {"Memory", true, true},
                      {"GFLOP/s", true, false},
                      {"GB/s", true, true},
                      {"Of peak", true, false},
                      {"Flags", false, false}})
       << "</thead>\n<tbody>\n";
  for (const auto& row : run.benchmarks) {
    page << "<tr data-name=\"" << html_text(row.name) << "\"" << (row.skipped ? " data-skipped=\"true\"" : "") << ">";
    // The shown name (text/benchmark_name.h); Google Benchmark's whole name is the row's data-name.
    page << "<td><span class=\"gbx-label\">" << html_text(row.label) << "</span></td>";
    if (row.skipped) {
      page << "<td colspan=\"12\" class=\"gbx-skipped\">skipped: " << html_text(row.skip_reason) << "</td></tr>\n";
      continue;
    }
    const auto optional_text = [](const std::optional<double>& v, std::string (*format)(double)) {
      return v ? format(*v) : std::string("-");
    };
    std::string accuracy = "not checked";
    if (row.accuracy_passed) accuracy = *row.accuracy_passed ? "passed" : "FAILED";
    std::string flags;
    std::string flag_messages;
    for (const auto& flag : row.flags) {
      if (flags.find(flag.flag) == std::string::npos) flags += (flags.empty() ? "" : ", ") + flag.flag;
      // The tooltip says what the flag means (text/flag_legend.h) before this row's particulars.
      const std::string meaning = flag_meaning(flag.flag);
      flag_messages += (flag_messages.empty() ? "" : "\n") + flag.flag + ": " +
                       (meaning.empty() ? "" : meaning + ". ") + flag.message;
    }
    page << cell(format_duration(row.median), sort_key(row.median))
         << cell(interval_text(row.median_lower, row.median_upper), sort_key(row.median_lower))
         << cell(optional_text(row.cv, format_percent), sort_key(row.cv), "", true)
         << cell(optional_text(row.p99, format_duration), sort_key(row.p99), "", true)
         << cell(std::to_string(row.count), std::to_string(row.count))
         << cell(optional_text(row.rel_l2_error, format_scientific), sort_key(row.rel_l2_error), "", true)
         << (row.accuracy_passed && !*row.accuracy_passed ? "<td class=\"gbx-bad\">" : "<td>") << accuracy << "</td>"
         << cell(row.memory_bytes ? format_bytes(*row.memory_bytes) + " " + row.memory_kind : "-",
                 sort_key(row.memory_bytes), "", true)
         << cell(optional_text(row.gflops, format_three_digits_compact), sort_key(row.gflops))
         << cell(optional_text(row.gbytes, format_three_digits_compact), sort_key(row.gbytes), "", true)
         << cell(optional_text(row.fraction_of_peak, format_percent), sort_key(row.fraction_of_peak))
         << cell(flags.empty() ? "-" : flags, "", flag_messages) << "</tr>\n";
  }
  page << "</tbody></table>\n";
}

void write_run_details(Page& page, const RunReport& run, std::size_t index) {
  page << "<section class=\"gbx-run\" id=\"run-" << index << "\">\n<h3>Run " << html_text(run.label) << ": "
       << (run.run_id.empty() ? "no run id" : "<code>" + html_text(run.run_id) + "</code>") << "</h3>\n"
       << "<dl class=\"gbx-summary\"><dt>File</dt><dd><code>" << html_text(run.path) << "</code></dd>"
       << "<dt>Created</dt><dd>" << html_text(run.created.empty() ? "unknown" : run.created) << "</dd>"
       << "<dt>Checksum</dt><dd class=\"" << (run.has_gbx ? "gbx-ok" : "gbx-warn") << "\">"
       << html_text(run.checksum_status) << "</dd></dl>\n";
  if (!run.missing_facts.empty()) {
    page << "<div class=\"gbx-missing\"><h3>Missing facts</h3><p>This is plain Google Benchmark JSON, without a gbx "
            "section. It does not hold:</p><ul>\n";
    for (const auto& fact : run.missing_facts) page << "<li>" << html_text(fact) << "</li>\n";
    page << "</ul></div>\n";
  }
  write_facts(page, "Environment", run.environment);
  write_facts(page, "Protocol", run.protocol);
  page << "</section>\n";
}

void write_pareto_table(Page& page, const ParetoGroup& group) {
  page << "<table class=\"gbx-pareto gbx-sortable\"><thead>"
       << header_row({{"Variant", false, false},
                      {"Median latency", true, false},
                      {"95% CI", true, false},
                      {"Error (rel. L2)", true, false},
                      {"Memory", true, false},
                      {"Frontier", false, false},
                      {"P(frontier)", true, false},
                      {"Dominated by", false, false}})
       << "</thead><tbody>\n";
  for (const auto& v : group.variants) {
    std::string dominated_by = "-";
    if (v.dominated_by) dominated_by = pareto_label(group, *v.dominated_by);
    page << "<tr>" << cell(v.variant, "", v.name) << cell(format_duration(v.latency_median), sort_key(v.latency_median))
         << cell(interval_text(v.latency_lower, v.latency_upper), sort_key(v.latency_lower))
         << cell(v.error ? format_scientific(*v.error) : "-", sort_key(v.error))
         << cell(v.memory_bytes ? format_bytes(*v.memory_bytes) : "-", sort_key(v.memory_bytes))
         << cell(v.on_frontier ? "yes" : "no")
         << cell(format_fixed(v.frontier_probability, 2), sort_key(v.frontier_probability)) << cell(dominated_by)
         << "</tr>\n";
  }
  for (const auto& f : group.failed) {
    const auto m = median(f.latency_samples);
    page << "<tr class=\"gbx-bad\">" << cell(f.variant, "", f.name) << cell(m ? format_duration(*m) : "-", sort_key(m))
         << cell("-") << cell(f.error ? format_scientific(*f.error) : "-", sort_key(f.error))
         << cell(f.memory_bytes ? format_bytes(*f.memory_bytes) : "-", sort_key(f.memory_bytes))
         << cell("failed accuracy") << cell("-") << cell(f.failure.empty() ? "-" : f.failure) << "</tr>\n";
  }
  page << "</tbody></table>\n";
}

void write_comparison(Page& page, const ReportModel& model, const Chart& chart) {
  const Comparison& comparison = *model.comparison;
  page << "<section id=\"comparison\">\n<h2>Comparison: " << html_text(model.runs[1].label) << " against "
       << html_text(model.runs[0].label) << "</h2>\n<p>Base <code>" << html_text(model.runs[0].path)
       << "</code>, candidate <code>" << html_text(model.runs[1].path)
       << "</code>. Verdicts as <code>gbx compare</code> gives them (docs/gating.md): faster or slower needs a "
          "BH-adjusted p at most "
       << format_three_digits_compact(comparison.fdr) << " and a ratio interval wholly outside 1 &plusmn; "
       << html_text(format_percent(comparison.noise_band))
       << ", on process-level values when both records have several processes; with one process on a side a "
          "change is only <em>unreplicated</em>, and a side with too few samples is <em>insufficient</em>.</p>\n";
  if (!comparison.compatible()) {
    page << "<div class=\"gbx-warning\"><strong>Warning: the records are not compatible</strong>, so this is not a "
            "sound comparison; every row is marked. These facts differ:<ul>\n";
    for (const auto& d : comparison.differences) {
      page << "<li>" << html_text(d.what) << ": base <code>" << html_text(d.base) << "</code>, candidate <code>"
           << html_text(d.candidate) << "</code></li>\n";
    }
    page << "</ul></div>\n";
  }
  if (comparison.fewer_facts) page << "<p class=\"gbx-note\">Note: " << html_text(kFewerFactsNote) << ".</p>\n";
  page << chart_container(chart);
  page << "<table class=\"gbx-compare gbx-sortable\"><thead>"
       << header_row({{"Benchmark", false, false},
                      {"Base", true, false},
                      {"Candidate", true, false},
                      {"Ratio", true, false},
                      {"95% CI", true, false},
                      {"p (BH)", true, false},
                      {"Verdict", false, false},
                      {"Sentence", false, false}})
       << "</thead><tbody>\n";
  for (const auto& row : comparison.rows) {
    const std::optional<double> ratio = row.ratio ? std::optional<double>(row.ratio->ratio) : std::nullopt;
    char interval[64] = "-";
    if (row.ratio) std::snprintf(interval, sizeof interval, "[%.3f, %.3f]", row.ratio->lower, row.ratio->upper);
    page << "<tr data-benchmark=\"" << html_text(row.name) << "\" data-verdict=\"" << to_string(row.verdict) << "\">"
         << cell(row.label, "", row.name)
         << cell(format_duration(row.base_median.estimate), sort_key(row.base_median.estimate))
         << cell(format_duration(row.candidate_median.estimate), sort_key(row.candidate_median.estimate))
         << cell(ratio ? format_three_digits_compact(*ratio) : "-", sort_key(ratio))
         << cell(interval, sort_key(row.ratio ? std::optional<double>(row.ratio->lower) : std::nullopt))
         << cell(row.adjusted_p < 0.001 ? "<0.001" : format_three_digits_compact(row.adjusted_p),
                 sort_key(row.adjusted_p))
         << "<td class=\"gbx-verdict-" << to_string(row.verdict) << "\">" << verdict_text(row)
         << (row.incompatible ? " (incompatible)" : "") << "</td>" << cell(row.sentence) << "</tr>\n";
  }
  page << "</tbody></table>\n";
  for (const auto& name : comparison.only_in_base)
    page << "<p>Only in the base: <code>" << html_text(shown_benchmark_name(name)) << "</code></p>\n";
  for (const auto& name : comparison.only_in_candidate) {
    page << "<p>Only in the candidate: <code>" << html_text(shown_benchmark_name(name)) << "</code></p>\n";
  }
  page << "</section>\n";
}

}  // namespace gbx::tools::html

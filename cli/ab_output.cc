#include "cli/ab_output.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <ostream>

#include "text/benchmark_name.h"
#include "text/escape.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

// A row's name as shown (text/benchmark_name.h): the benchmark's, or with two variants of one binary
// "BASE vs CANDIDATE", each shown.
std::string shown_row_name(const std::string& name) {
  const auto vs = name.find(" vs ");
  if (vs == std::string::npos) return shown_benchmark_name(name);
  return shown_benchmark_name(name.substr(0, vs)) + " vs " + shown_benchmark_name(name.substr(vs + 4));
}

nlohmann::json row_json(const PairedResult& r, double band, double equivalence) {
  nlohmann::json j;
  j["name"] = r.name;
  j["shown_name"] = shown_row_name(r.name);
  j["verdict"] = verdict_text(r);
  j["timing_verdict"] = to_string(r.verdict);  // what the times alone decided, before the accuracy checks
  j["unit"] = "worker pair";
  j["pairs"] = r.pair_log_ratios.size();
  j["block_pairs"] = r.block_pairs;
  j["pair_log_ratios"] = r.pair_log_ratios;
  // bounded false: a side of the interval is the analysis's clamp (e^-50 or e^50), not a measured ratio.
  j["ratio"] = {{"estimate", r.ratio},
                {"lower", r.lower},
                {"upper", r.upper},
                {"bounded", interval_bounded(r.lower, r.upper)},
                {"method", r.method}};
  j["equivalence_interval"] = {{"lower", r.equivalence_lower},
                               {"upper", r.equivalence_upper},
                               {"bounded", interval_bounded(r.equivalence_lower, r.equivalence_upper)}};
  j["p_adjusted"] = r.p_value;
  j["test"] = r.test;
  // The bounds each block pair's ratio was winsorised to before the pairs' estimates, and how many
  // were pulled in (null bounds: not winsorised).
  j["block_ratio_bounds"] = r.block_ratio_bounds ? nlohmann::json{{"lower", std::exp(r.block_ratio_bounds->lower)},
                                                                  {"upper", std::exp(r.block_ratio_bounds->upper)}}
                                                 : nlohmann::json();
  j["winsorised_block_pairs"] = r.winsorised_block_pairs;
  // The noise's levels as standard deviations on the log scale (about the relative spread).
  const PairedVariance& v = r.variance;
  j["noise"] = {{"within_block_sd", std::sqrt(v.within_block)},
                {"between_blocks_sd", std::sqrt(v.between_blocks)},
                {"between_pairs_sd", v.between_pairs ? nlohmann::json(std::sqrt(*v.between_pairs)) : nlohmann::json()},
                {"from_blocks_sd", std::sqrt(v.from_blocks)}};
  j["mde"] = r.mde ? nlohmann::json(*r.mde) : nlohmann::json();
  j["pairs_for_margin"] = r.pairs_for_margin ? nlohmann::json(*r.pairs_for_margin) : nlohmann::json();
  j["stopped_for_futility"] = r.futile;
  j["chance_to_decide"] = r.futile && r.chance_to_decide ? nlohmann::json(*r.chance_to_decide) : nlohmann::json();
  j["failure"] = r.failure.empty() ? nlohmann::json() : nlohmann::json(r.failure);
  const auto failed_check = [](const std::string& why) { return why.empty() ? nlohmann::json() : nlohmann::json(why); };
  j["accuracy_failure"] = {{"base", failed_check(r.base_accuracy_failure)},
                           {"candidate", failed_check(r.candidate_accuracy_failure)}};
  PairedResult shown = r;
  shown.name = shown_row_name(r.name);
  j["sentence"] = paired_sentence(shown, band, equivalence);
  return j;
}

}  // namespace

int print_paired(std::ostream& out, const std::string& format, const PairedComparison& c, const std::string& base_path,
                 const std::string& candidate_path) {
  const auto suite = suite_ratio(c.rows);
  if (format == "json") {
    nlohmann::json j;
    j["base"] = base_path;
    j["candidate"] = candidate_path;
    j["compatible"] = true;
    j["design"] = c.design;
    j["noise_band"] = c.noise_band;
    j["equivalence"] = c.equivalence;
    j["only_in_base"] = c.only_in_base;
    j["only_in_candidate"] = c.only_in_candidate;
    j["rows"] = nlohmann::json::array();
    for (const auto& r : c.rows) j["rows"].push_back(row_json(r, c.noise_band, c.equivalence));
    std::size_t counts[5] = {0, 0, 0, 0, 0};
    for (const auto& r : c.rows) {
      const std::string v = verdict_text(r);
      ++counts[v == "slower" ? 0 : v == "faster" ? 1 : v == "same" ? 2 : v == "inaccurate" ? 4 : 3];
    }
    j["summary"] = {{"slower", counts[0]},
                    {"faster", counts[1]},
                    {"same", counts[2]},
                    {"inconclusive", counts[3]},
                    {"inaccurate", counts[4]}};
    j["summary"]["geometric_mean_ratio"] =
        suite ? nlohmann::json{{"estimate", suite->ratio}, {"lower", suite->lower}, {"upper", suite->upper}}
              : nlohmann::json();
    j["summary"]["line"] = summary_line(c.rows);
    out << j.dump(2) << "\n";
    return paired_exit_code(c.rows);
  }
  const bool markdown = format == "markdown";
  // The tables and sentences name each row as the console of a bench binary does.
  std::vector<PairedResult> rows = c.rows;
  for (PairedResult& r : rows) r.name = shown_row_name(r.name);
  std::size_t width = 20;
  for (const auto& r : rows) width = std::max(width, r.name.size() + 2);
  if (markdown) {
    out << "| Benchmark | Ratio [95% CI] | MDE | Pairs | Verdict |\n|---|---|---|---|---|\n";
  } else {
    out << std::string(width, ' ').replace(0, 9, "Benchmark") << "Ratio [95% CI]          MDE     Pairs  Verdict\n";
  }
  for (const auto& r : rows) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "%.3f %s", r.ratio, interval_text(r.lower, r.upper).c_str());
    const std::string mde = r.mde ? format_percent(*r.mde) : "-";
    if (markdown) {
      out << "| " << markdown_text(r.name) << " | " << buffer << " | " << mde << " | " << r.pair_log_ratios.size()
          << " | **" << verdict_text(r) << "** |\n";
    } else {
      std::string line = terminal_text(r.name);
      line.append(width > line.size() ? width - line.size() : 1, ' ');
      char rest[200];
      std::snprintf(rest, sizeof rest, "%-23s %-7s %5zu  %s", buffer, mde.c_str(), r.pair_log_ratios.size(),
                    verdict_text(r).c_str());
      out << line << rest << "\n";
    }
  }
  out << "\n";
  for (const auto& r : rows) {
    const std::string s = paired_sentence(r, c.noise_band, c.equivalence);
    out << (markdown ? "- " + markdown_text(s) : terminal_text(s)) << "\n";
  }
  const auto shown = [markdown](const std::string& raw) { return markdown ? markdown_code(raw) : terminal_text(raw); };
  for (const auto& name : c.only_in_base) {
    out << (markdown ? "- " : "") << "only in " << shown(base_path) << ": " << shown(shown_benchmark_name(name))
        << "\n";
  }
  for (const auto& name : c.only_in_candidate) {
    out << (markdown ? "- " : "") << "only in " << shown(candidate_path) << ": " << shown(shown_benchmark_name(name))
        << "\n";
  }
  out << (markdown ? "\n**" : "") << summary_line(c.rows) << (markdown ? "**" : "") << "\n";
  return paired_exit_code(c.rows);
}

}  // namespace gbx::tools

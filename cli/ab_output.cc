#include "cli/ab_output.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <ostream>

#include "text/benchmark_name.h"
#include "text/escape.h"
#include "text/format.h"
#include "writer/record_finisher.h"

namespace gbx::tools {

std::optional<int> write_side_records(const std::function<nlohmann::json(int)>& record_of, const std::string paths[2],
                                      int signal, std::ostream& err) {
  static const char* const roles[2] = {"base", "candidate"};
  try {
    for (int s = 0; s < 2; ++s) {
      write_record(record_of(s), {paths[s], "", std::nullopt, false}, std::cout);
      err << "gbx ab: " << roles[s] << " record written to " << paths[s] << "\n";
    }
  } catch (const std::exception& error) {
    err << "gbx ab: cannot write the records: " << error.what() << "\n";
    return 2;
  }
  if (signal != 0) {
    err << "gbx ab: interrupted by signal " << signal << "; both records keep what finished\n";
    return 128 + signal;
  }
  return std::nullopt;
}

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

void add_accuracy(std::vector<PairedResult>& rows, const LoadedRecord& base, const LoadedRecord& candidate) {
  for (PairedResult& row : rows) {
    for (const LoadedRecord* side : {&base, &candidate}) {
      // The row's benchmark on this side: its own name, which differs from the row's with two variants.
      std::string benchmark = row.name;
      for (const auto& listed : side->json["gbx"]["ab"].value("rows", nlohmann::json::array())) {
        if (listed.value("name", std::string()) == row.name && listed.contains("benchmark") &&
            listed["benchmark"].is_string()) {
          benchmark = listed["benchmark"].get<std::string>();
        }
      }
      for (const auto& b : side->benchmarks) {
        if (b.name != benchmark || !b.accuracy_failed) continue;
        (side == &base ? row.base_accuracy_failure : row.candidate_accuracy_failure) = b.failure;
      }
    }
  }
}

bool paired_records(const LoadedRecord& base, const LoadedRecord& candidate) {
  const nlohmann::json::json_pointer blocks("/gbx/ab/blocks");
  const nlohmann::json::json_pointer partner("/gbx/ab/partner_run_id");
  const nlohmann::json::json_pointer run("/gbx/run_id");
  for (const auto* r : {&base, &candidate}) {
    if (!r->json.contains(blocks) || !r->json[blocks].is_array() || !r->json.contains(partner)) return false;
  }
  return base.json.value(partner, std::string()) == candidate.json.value(run, std::string()) &&
         candidate.json.value(partner, std::string()) == base.json.value(run, std::string());
}

PairedComparison paired_from_records(const LoadedRecord& base, const LoadedRecord& candidate,
                                     std::optional<PairTest> test) {
  PairedComparison c;
  const nlohmann::json& ab = base.json["gbx"]["ab"];
  c.noise_band = ab.value("noise_band", 0.02);
  c.equivalence = ab.value("equivalence", kDefaultEquivalenceMargin);
  c.design = ab;
  c.design.erase("blocks");
  if (!test) test = parse_pair_test(ab.value("pair_test", std::string("t")));
  if (!test) test = PairTest::t;
  c.design["pair_test"] = to_string(*test);
  c.only_in_base = ab.value("only_in_base", std::vector<std::string>());
  c.only_in_candidate = ab.value("only_in_candidate", std::vector<std::string>());
  std::vector<AbBlock> blocks;
  for (const auto* r : {&base, &candidate}) {
    for (const auto& b : r->json["gbx"]["ab"]["blocks"]) blocks.push_back(block_from_json(b));
  }
  std::vector<std::string> names;
  std::vector<std::string> failures;
  for (const auto& row : ab.value("rows", nlohmann::json::array())) {
    names.push_back(row.value("name", std::string()));
    failures.emplace_back();
    // A side's failure is in both records' rows.
    for (const auto* r : {&base, &candidate}) {
      for (const auto& other : r->json["gbx"]["ab"].value("rows", nlohmann::json::array())) {
        if (other.value("name", std::string()) == names.back() && other.contains("failure") &&
            other["failure"].is_string()) {
          failures.back() = other["failure"].get<std::string>();
        }
      }
    }
  }
  std::vector<RecordedLook> looks;
  for (const auto& look : ab.value("looks", nlohmann::json::array())) {
    RecordedLook recorded{look.value("pairs", std::int64_t{0}),
                          look.value("planned_pairs", std::int64_t{1}),
                          look.value("final", false),
                          {}};
    for (const auto& futile : look.value("futile", nlohmann::json::array())) {
      recorded.futile.push_back({futile.value("name", std::string()), futile.value("reachable_pairs", std::size_t{0}),
                                 futile.value("chance_to_decide", 0.0)});
    }
    looks.push_back(std::move(recorded));
  }
  const bool winsorise = ab.value("pair_estimate", std::string(kPairEstimatePlain)) == kPairEstimateWinsorised;
  c.design["pair_estimate"] = winsorise ? kPairEstimateWinsorised : kPairEstimatePlain;
  c.rows = replay_looks(names, failures, blocks, looks, c.noise_band, c.equivalence, ab.value("fdr", 0.05), *test,
                        winsorise);
  add_accuracy(c.rows, base, candidate);
  return c;
}

}  // namespace gbx::tools

#include "ab/paired.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "analysis/record_comparison.h"
#include "stats/statistics.h"
#include "text/format.h"

namespace gbx::tools {

nlohmann::json block_json(const AbBlock& b) {
  nlohmann::json j = {{"row", b.row},       {"name", b.name},      {"side", b.side}, {"pair", b.pair},
                      {"block", b.block},   {"order", b.order},    {"pid", b.pid},   {"start_ns", b.start_ns},
                      {"end_ns", b.end_ns}, {"samples", b.samples}};
  if (b.shared_bytes >= 0) {
    j["shared_bytes"] = b.shared_bytes;
    j["private_bytes"] = b.private_bytes;
  }
  return j;
}

AbBlock block_from_json(const nlohmann::json& j) {
  AbBlock b;
  b.name = j.value("name", std::string());
  b.row = j.value("row", b.name);
  b.side = j.value("side", std::string());
  b.pair = j.value("pair", std::int64_t{0});
  b.block = j.value("block", std::int64_t{0});
  b.order = j.value("order", std::int64_t{0});
  b.pid = j.value("pid", std::int64_t{0});
  b.start_ns = j.value("start_ns", std::int64_t{0});
  b.end_ns = j.value("end_ns", std::int64_t{0});
  b.shared_bytes = j.value("shared_bytes", std::int64_t{-1});
  b.private_bytes = j.value("private_bytes", std::int64_t{-1});
  for (const auto& s : j.value("samples", nlohmann::json::array())) {
    if (s.is_number()) b.samples.push_back(s.get<double>());
  }
  return b;
}

std::vector<WorkerPairBlocks> worker_pairs(const std::string& row, const std::vector<AbBlock>& blocks,
                                           std::int64_t pairs) {
  // (pair, block) -> (base, candidate)
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<const AbBlock*, const AbBlock*>> cells;
  for (const auto& b : blocks) {
    if (b.row != row || (pairs >= 0 && b.pair >= pairs)) continue;
    auto& cell = cells[{b.pair, b.block}];
    (b.side == "base" ? cell.first : cell.second) = &b;
  }
  std::map<std::int64_t, WorkerPairBlocks> by_pair;
  for (const auto& [key, cell] : cells) {
    if (cell.first == nullptr || cell.second == nullptr) continue;  // a worker died mid-pair
    BlockPair pair;
    pair.base = cell.first->samples;
    pair.candidate = cell.second->samples;
    pair.candidate_first = cell.second->order == 0;
    pair.start_seconds = 1e-9 * static_cast<double>(std::min(cell.first->start_ns, cell.second->start_ns));
    by_pair[key.first].block_pairs.push_back(std::move(pair));
  }
  std::vector<WorkerPairBlocks> out;
  out.reserve(by_pair.size());
  for (auto& [index, pair] : by_pair) out.push_back(std::move(pair));
  return out;
}

PairedResult result_from(const std::string& name, const SequentialRow& row, const PairedOptions& options) {
  PairedResult r;
  r.name = name;
  r.verdict = row.decision.verdict;
  r.p_value = row.adjusted_p;
  r.mde = row.mde;
  r.futile = row.futile;
  r.chance_to_decide = row.chance_to_decide;
  r.reachable_pairs = row.reachable_pairs;
  if (!row.analysis) return r;
  const PairedAnalysis& a = *row.analysis;
  for (const auto& e : a.estimates) {
    r.pair_log_ratios.push_back(e.log_ratio);
    r.block_pairs += e.block_pairs;
    r.winsorised_block_pairs += e.winsorised;
  }
  r.block_ratio_bounds = a.block_ratio_bounds;
  r.variance = a.variance;
  r.ratio = a.ratio;
  r.test = a.test;
  if (!r.mde) r.mde = a.mde;
  if (a.se_log_ratio) {
    r.pairs_for_margin = pairs_for_detectable_change(*a.se_log_ratio * std::sqrt(static_cast<double>(a.pairs)), a.pairs,
                                                     options.equivalence_margin, options);
  }
  const RatioInterval none{a.ratio, a.ratio, a.ratio, 0.95, "", 0, 0};
  const RatioInterval& d = row.difference ? *row.difference : none;
  const RatioInterval& e = row.equivalence ? *row.equivalence : none;
  r.method = d.method.empty() ? "repeated-paired-t-log-ratios" : d.method;
  r.lower = d.lower;
  r.upper = d.upper;
  r.equivalence_lower = e.lower;
  r.equivalence_upper = e.upper;
  return r;
}

SequentialDesign ab_design(double noise_band, double equivalence, double fdr, std::int64_t planned_pairs,
                           std::size_t benchmarks, PairTest test) {
  SequentialDesign design;
  design.benchmarks = benchmarks;
  design.looks = look_schedule(static_cast<std::size_t>(std::max<std::int64_t>(planned_pairs, 1)));
  design.options.noise_band = noise_band;
  design.options.equivalence_margin = equivalence;
  design.q = fdr;
  design.options.test = test;
  return design;
}

std::vector<PairedResult> replay_looks(const std::vector<std::string>& rows, const std::vector<std::string>& failures,
                                       const std::vector<AbBlock>& blocks, const std::vector<RecordedLook>& looks,
                                       double noise_band, double equivalence, double fdr, PairTest test) {
  std::vector<SequentialRow> state(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) state[i].stopped = i < failures.size() && !failures[i].empty();
  for (const auto& look : looks) {
    std::vector<std::vector<WorkerPairBlocks>> pairs;
    pairs.reserve(rows.size());
    for (const auto& row : rows) pairs.push_back(worker_pairs(row, blocks, look.pairs));
    sequential_look(pairs, state, ab_design(noise_band, equivalence, fdr, look.planned_pairs, rows.size(), test),
                    look.final_look);
    // The run measured a futile row no further; its decision at this look stands (in a replay with
    // another test too: there is nothing more to analyse).
    for (const auto& futile : look.futile) {
      const auto at = std::find(rows.begin(), rows.end(), futile.name);
      if (at == rows.end()) continue;
      SequentialRow& row = state[static_cast<std::size_t>(at - rows.begin())];
      if (row.stopped) continue;
      row.stopped = true;
      row.futile = true;
      row.chance_to_decide = futile.chance_to_decide;
      row.reachable_pairs = futile.reachable_pairs;
    }
  }
  const PairedOptions options = ab_design(noise_band, equivalence, fdr, 1, rows.size(), test).options;
  std::vector<PairedResult> results;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    results.push_back(result_from(rows[i], state[i], options));
    if (i < failures.size()) results.back().failure = failures[i];
  }
  return results;
}

namespace {
// The analysis clamps an unbounded side's log ratio at +/-kMaxAbsLogRatio (50); any side beyond
// e^+/-40 is that clamp, never a measured ratio.
constexpr double kUnboundedLog = 40.0;
bool lower_unbounded(double lower) { return !(lower > 0.0) || std::log(lower) <= -kUnboundedLog; }
bool upper_unbounded(double upper) { return std::log(upper) >= kUnboundedLog; }
}  // namespace

std::string interval_text(double lower, double upper) {
  const std::string low = lower_unbounded(lower) ? "0" : format_fixed(lower, 3);
  const std::string high = upper_unbounded(upper) ? "inf" : format_fixed(upper, 3);
  return "[" + low + ", " + high + "]";
}

bool interval_bounded(double lower, double upper) { return !lower_unbounded(lower) && !upper_unbounded(upper); }

bool candidate_inaccurate(const PairedResult& r) {
  return r.failure.empty() && candidate_failed_alone(r.base_accuracy_failure, r.candidate_accuracy_failure);
}

std::string verdict_text(const PairedResult& r) {
  if (!r.failure.empty()) return "failed";
  return candidate_inaccurate(r) ? "inaccurate" : to_string(r.verdict);
}

std::string detectable_change_clause(std::optional<double> mde) {
  if (!mde || !std::isfinite(*mde)) return "the run has no replicated estimate of its noise";
  if (*mde > 10.0) return "only a change of more than 1000% would have been seen";
  char text[64];
  std::snprintf(text, sizeof text, "a change of %.1f%% or more would have been seen", 100.0 * *mde);
  return text;
}

std::string held_back_sentence(double adjusted_p, const std::string& test, std::size_t pairs) {
  // Sized for the longest floor clause, so -Wformat-truncation (-O1 builds) has nothing to flag.
  char text[320];
  char floor[96] = "";
  if (exact_test(test)) {
    std::snprintf(floor, sizeof floor, "; with %zu worker pairs an exact test's p is at least %.2g", pairs,
                  exact_least_p(pairs));
  }
  std::snprintf(text, sizeof text,
                "inconclusive: beyond the noise band, but not significant across the benchmarks (adjusted p %.3g%s): "
                "more worker pairs, from a larger --budget, would decide it",
                adjusted_p, floor);
  return text;
}

std::string noise_level_clause(const PairedVariance& variance) {
  const std::optional<NoiseSource> source = noise_source(variance);
  if (!source) return "";
  char text[320];
  if (source->level == NoiseLevel::between_processes) {
    std::snprintf(text, sizeof text,
                  "the noise is between processes: the pairs' ratios vary by %.1f%% (sd) beyond the %.1f%% their "
                  "blocks explain; more worker pairs, from a larger --budget, would narrow it, longer pairs would not",
                  100.0 * source->between_pairs_sd, 100.0 * source->from_blocks_sd);
  } else {
    std::snprintf(text, sizeof text,
                  "the noise is within processes: a block pair's ratio varies by %.1f%% (sd) about its pair's, "
                  "leaving %.1f%% in each pair's, against %.1f%% between processes; more block pairs and worker "
                  "pairs, from a larger --budget, would narrow it",
                  100.0 * source->between_blocks_sd, 100.0 * source->from_blocks_sd, 100.0 * source->between_pairs_sd);
  }
  return text;
}

namespace {

// "inconclusive: stopped after 5 worker pairs, as even the whole budget left (13 pairs) had a 2% chance
// of deciding it".
std::string futile_sentence(const PairedResult& r) {
  std::string text = "inconclusive: stopped after " + std::to_string(r.pair_log_ratios.size()) +
                     " worker pairs, as even the whole budget left";
  if (r.reachable_pairs > 0) text += " (" + std::to_string(r.reachable_pairs) + " pairs)";
  if (r.chance_to_decide) return text + " had a " + format_percent(*r.chance_to_decide) + " chance of deciding it";
  return text + " could not have decided it";
}

// The timing part of a row's sentence, after its name.
std::string timing_sentence(const PairedResult& r, double noise_band, double equivalence) {
  const std::size_t k = r.pair_log_ratios.size();
  if (k == 0) return "insufficient: no complete block pair";
  const std::string interval = "ratio " + format_fixed(r.ratio, 3) + " " + interval_text(r.lower, r.upper) + ", " +
                               std::to_string(k) + " worker pairs, " + std::to_string(r.block_pairs) +
                               " interleaved block pairs";
  const std::string direction =
      r.ratio >= 1.0 ? format_percent(r.ratio - 1.0) + " slower" : format_percent(1.0 - r.ratio) + " faster";
  switch (r.verdict) {
    case Verdict::slower:
    case Verdict::faster:
      return direction + " (beyond the +/-" + format_percent(noise_band) + " noise band), " + interval;
    case Verdict::same:
      return "the same within +/-" + format_percent(equivalence) + " (TOST interval " +
             interval_text(r.equivalence_lower, r.equivalence_upper) + "), " + interval;
    case Verdict::inconclusive: {
      // Beyond the band yet undecided: the adjusted p held it back, which the MDE cannot say.
      if (beyond_noise_band(r.lower, r.upper, noise_band))
        return held_back_sentence(r.p_value, r.test, k) + "; " + interval;
      const std::string noise_level = noise_level_clause(r.variance);
      const std::string tail = interval + (noise_level.empty() ? "" : "; " + noise_level);
      const std::string to_margin = r.pairs_for_margin
                                        ? " (about " + std::to_string(*r.pairs_for_margin) +
                                              " worker pairs would bring it to " + format_percent(equivalence) + ")"
                                        : "";
      if (r.futile) return futile_sentence(r) + "; " + detectable_change_clause(r.mde) + to_margin + "; " + tail;
      return "inconclusive: " + detectable_change_clause(r.mde) + to_margin + "; " + tail;
    }
    default:
      return std::string(to_string(r.verdict)) + ": " + std::to_string(k) +
             " worker pair(s), too few to tell machine noise from a change; " + interval;
  }
}

}  // namespace

std::string paired_sentence(const PairedResult& r, double noise_band, double equivalence) {
  if (!r.failure.empty()) return r.name + ": failed: " + r.failure;
  return with_accuracy(r.name, timing_sentence(r, noise_band, equivalence), r.base_accuracy_failure,
                       r.candidate_accuracy_failure);
}

std::optional<RatioInterval> suite_ratio(const std::vector<PairedResult>& rows) {
  std::vector<double> logs;
  for (const auto& r : rows) {
    if (r.failure.empty() && !r.pair_log_ratios.empty() && r.ratio > 0.0) logs.push_back(std::log(r.ratio));
  }
  return geometric_mean_ratio(logs);
}

std::string summary_line(const std::vector<PairedResult>& rows) {
  std::size_t slower = 0, faster = 0, same = 0, undecided = 0, failed = 0, inaccurate = 0;
  for (const auto& r : rows) {
    if (!r.failure.empty()) {
      ++failed;
    } else if (candidate_inaccurate(r)) {
      ++inaccurate;
    } else if (r.verdict == Verdict::slower) {
      ++slower;
    } else if (r.verdict == Verdict::faster) {
      ++faster;
    } else if (r.verdict == Verdict::same) {
      ++same;
    } else {
      ++undecided;
    }
  }
  std::string line = "summary: " + std::to_string(slower) + " slower, " + std::to_string(faster) + " faster, " +
                     std::to_string(same) + " same, " + std::to_string(undecided) + " inconclusive";
  if (inaccurate > 0) line += ", " + std::to_string(inaccurate) + " inaccurate";
  if (failed > 0) line += ", " + std::to_string(failed) + " failed";
  if (const auto suite = suite_ratio(rows)) {
    line += "; geometric-mean ratio " + format_fixed(suite->ratio, 3) + " " +
            interval_text(suite->lower, suite->upper) + " 95% CI over the benchmarks";
  }
  return line;
}

int paired_exit_code(const std::vector<PairedResult>& rows) {
  bool undecided = false;
  for (const auto& r : rows) {
    if (r.failure.empty() && (r.verdict == Verdict::slower || candidate_inaccurate(r))) return 1;
    undecided = undecided || !r.failure.empty() || (r.verdict != Verdict::faster && r.verdict != Verdict::same);
  }
  return undecided ? 3 : 0;
}

}  // namespace gbx::tools

#include "cli/ab_paired.h"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "stats/statistics.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

double t_quantile(double p, double degrees) {
  return boost::math::quantile(boost::math::students_t_distribution<double>(degrees), p);
}

double log_median(const std::vector<double>& samples) {
  const auto m = median(samples);
  return m && *m > 0.0 ? std::log(*m) : NAN;
}

}  // namespace

nlohmann::json block_json(const AbBlock& b) {
  return {{"row", b.row},     {"name", b.name}, {"side", b.side},         {"pair", b.pair},     {"block", b.block},
          {"order", b.order}, {"pid", b.pid},   {"start_ns", b.start_ns}, {"end_ns", b.end_ns}, {"samples", b.samples}};
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
  for (const auto& s : j.value("samples", nlohmann::json::array())) {
    if (s.is_number()) b.samples.push_back(s.get<double>());
  }
  return b;
}

PairedResult analyse_pairs(const std::string& name, const std::vector<AbBlock>& blocks, double noise_band,
                           double equivalence, const LookLevels& levels) {
  PairedResult r;
  r.name = name;
  // (pair, block) -> (base log median, candidate log median)
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<double, double>> cells;
  for (const auto& b : blocks) {
    if (b.row != name || b.samples.empty()) continue;
    auto& cell = cells.try_emplace({b.pair, b.block}, NAN, NAN).first->second;
    (b.side == "base" ? cell.first : cell.second) = log_median(b.samples);
  }
  // Per worker pair the median of its block-pair log ratios: a block hit by a preemption or a step of
  // the clock (the machine is shared) moves a mean by its whole size, a median hardly.
  std::map<std::int64_t, std::vector<double>> pairs;
  for (const auto& [key, cell] : cells) {
    if (!std::isfinite(cell.first) || !std::isfinite(cell.second)) continue;
    pairs[key.first].push_back(cell.second - cell.first);
    ++r.block_pairs;
  }
  for (const auto& [pair, ratios] : pairs) r.pair_log_ratios.push_back(*median(ratios));
  const std::size_t k = r.pair_log_ratios.size();
  if (k == 0) return r;
  double mean = 0.0;
  for (double y : r.pair_log_ratios) mean += y;
  mean /= static_cast<double>(k);
  r.ratio = std::exp(mean);
  r.lower = r.upper = r.equivalence_lower = r.equivalence_upper = r.ratio;
  if (k < 2) {
    r.verdict = Verdict::unreplicated;
    return r;
  }
  double ss = 0.0;
  for (double y : r.pair_log_ratios) ss += (y - mean) * (y - mean);
  const double df = static_cast<double>(k - 1);
  const double se = std::sqrt(ss / df / static_cast<double>(k));
  const double t_difference = t_quantile(1.0 - levels.alpha_difference / 2.0, df);
  const double t_equivalence = t_quantile(1.0 - levels.alpha_equivalence, df);
  r.lower = std::exp(mean - t_difference * se);
  r.upper = std::exp(mean + t_difference * se);
  r.equivalence_lower = std::exp(mean - t_equivalence * se);
  r.equivalence_upper = std::exp(mean + t_equivalence * se);
  if (se > 0.0) {
    const double t = std::fabs(mean) / se;
    r.p_value = 2.0 * boost::math::cdf(boost::math::complement(boost::math::students_t_distribution<double>(df), t));
  } else {
    r.p_value = mean == 0.0 ? 1.0 : 0.0;
  }
  // At 90% power for a two-sided test at 5%, from the measured spread between pairs.
  r.mde = std::expm1((t_quantile(0.975, df) + t_quantile(0.9, df)) * se);
  if (k < kMinPairs) {
    r.verdict = Verdict::unreplicated;
  } else if (r.lower > 1.0 + noise_band) {
    r.verdict = Verdict::slower;
  } else if (r.upper < 1.0 - noise_band) {
    r.verdict = Verdict::faster;
  } else if (r.equivalence_lower >= 1.0 / (1.0 + equivalence) && r.equivalence_upper <= 1.0 + equivalence) {
    r.verdict = Verdict::same;
  } else {
    r.verdict = Verdict::inconclusive;
  }
  return r;
}

std::string paired_sentence(const PairedResult& r, double noise_band, double equivalence) {
  std::string s = r.name + ": ";
  if (!r.failure.empty()) return s + "failed: " + r.failure;
  const std::size_t k = r.pair_log_ratios.size();
  if (k == 0) return s + "insufficient: no complete block pair";
  const std::string interval = "ratio " + format_fixed(r.ratio, 3) + " [" + format_fixed(r.lower, 3) + ", " +
                               format_fixed(r.upper, 3) + "], " + std::to_string(k) + " worker pairs, " +
                               std::to_string(r.block_pairs) + " interleaved block pairs";
  const std::string direction =
      r.ratio >= 1.0 ? format_percent(r.ratio - 1.0) + " slower" : format_percent(1.0 - r.ratio) + " faster";
  switch (r.verdict) {
    case Verdict::slower:
    case Verdict::faster:
      return s + direction + " (beyond the +/-" + format_percent(noise_band) + " noise band), " + interval;
    case Verdict::same:
      return s + "the same within +/-" + format_percent(equivalence) + " (TOST interval [" +
             format_fixed(r.equivalence_lower, 3) + ", " + format_fixed(r.equivalence_upper, 3) + "]), " + interval;
    case Verdict::inconclusive:
      return s + "inconclusive: a change of " + format_percent(r.mde) + " or more would have been seen; " + interval;
    default:
      return s + "unreplicated: " + std::to_string(k) + " worker pair(s), fewer than " + std::to_string(kMinPairs) +
             " to tell machine noise from a change; " + interval;
  }
}

SuiteRatio suite_ratio(const std::vector<PairedResult>& rows) {
  SuiteRatio suite;
  double sum = 0.0;
  double variance = 0.0;
  for (const auto& r : rows) {
    const std::size_t k = r.pair_log_ratios.size();
    if (k < 2 || !r.failure.empty()) continue;
    const double mean = std::log(r.ratio);
    double ss = 0.0;
    for (double y : r.pair_log_ratios) ss += (y - mean) * (y - mean);
    sum += mean;
    variance += ss / static_cast<double>(k - 1) / static_cast<double>(k);
    ++suite.benchmarks;
  }
  if (suite.benchmarks == 0) return suite;
  const double n = static_cast<double>(suite.benchmarks);
  const double mean = sum / n;
  const double se = std::sqrt(variance) / n;  // the benchmarks' errors are independent
  const double z = boost::math::quantile(boost::math::normal_distribution<double>(), 0.975);
  suite.ratio = std::exp(mean);
  suite.lower = std::exp(mean - z * se);
  suite.upper = std::exp(mean + z * se);
  return suite;
}

std::string summary_line(const std::vector<PairedResult>& rows) {
  std::size_t slower = 0, faster = 0, same = 0, undecided = 0, failed = 0;
  for (const auto& r : rows) {
    if (!r.failure.empty()) {
      ++failed;
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
  const SuiteRatio suite = suite_ratio(rows);
  std::string line = "summary: " + std::to_string(slower) + " slower, " + std::to_string(faster) + " faster, " +
                     std::to_string(same) + " same, " + std::to_string(undecided) + " inconclusive";
  if (failed > 0) line += ", " + std::to_string(failed) + " failed";
  if (suite.benchmarks > 0) {
    line += "; geometric-mean ratio " + format_fixed(suite.ratio, 3) + " [" + format_fixed(suite.lower, 3) + ", " +
            format_fixed(suite.upper, 3) + "] 95% CI over " + std::to_string(suite.benchmarks) + " benchmarks";
  }
  return line;
}

int paired_exit_code(const std::vector<PairedResult>& rows) {
  bool undecided = false;
  for (const auto& r : rows) {
    if (r.failure.empty() && r.verdict == Verdict::slower) return 1;
    undecided = undecided || !r.failure.empty() || (r.verdict != Verdict::faster && r.verdict != Verdict::same);
  }
  return undecided ? 3 : 0;
}

}  // namespace gbx::tools

namespace gbx::tools {

double pocock_spent(double t, double alpha) {
  const double clamped = std::min(1.0, std::max(0.0, t));
  return alpha * std::log1p((std::exp(1.0) - 1.0) * clamped);
}

}  // namespace gbx::tools

// Futility stopping of a paired, sequential comparison (chance_to_decide, stop_if_futile in
// stats/sequential.h).
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "stats/paired_detail.h"
#include "stats/sequential.h"

namespace gbx {
namespace {

// P(N(mean, sd) < x); a step where sd is 0 (a row whose pairs all agree).
double normal_below(double x, double mean, double sd) {
  if (!(sd > 0.0)) return x > mean ? 1.0 : 0.0;
  return 0.5 * std::erfc((mean - x) / (sd * std::sqrt(2.0)));
}

}  // namespace

std::optional<double> chance_to_decide(const PairedAnalysis& analysis, std::size_t reachable_pairs,
                                       const PairedOptions& options) {
  if (!analysis.replicated || analysis.pairs < 2 || !analysis.se_log_ratio || !(*analysis.se_log_ratio >= 0.0) ||
      reachable_pairs <= analysis.pairs || !(analysis.ratio > 0.0)) {
    return std::nullopt;
  }
  const double pairs = static_cast<double>(analysis.pairs);
  const double reachable = static_cast<double>(reachable_pairs);
  // One slow process among the first pairs, which the weights and ranks of the tests discount, would
  // make a row look hopeless through a standard error it inflates (the simulation's heavy tail): the
  // smaller of the test's and a robust one, 1.4826 MAD of the x_k / sqrt(K).
  std::vector<double> x;
  x.reserve(analysis.estimates.size());
  for (const PairEstimate& estimate : analysis.estimates) x.push_back(estimate.log_ratio);
  const double robust = x.size() >= 2 ? paired_detail::robust_spread(x) / std::sqrt(pairs) : *analysis.se_log_ratio;
  const double se = std::min(*analysis.se_log_ratio, robust) * std::sqrt(pairs / reachable);
  const double tau = se * std::sqrt(1.0 - pairs / reachable);
  const double d = std::log(analysis.ratio);
  const double degrees = reachable - 1.0;
  const double difference_reach =
      std::log1p(options.noise_band) + paired_detail::t_quantile(degrees, 1.0 - options.alpha / 2.0) * se;
  const double slower = 1.0 - normal_below(difference_reach, d, tau);
  const double faster = normal_below(-difference_reach, d, tau);
  const double equivalence_half = paired_detail::t_quantile(degrees, 1.0 - options.equivalence_alpha) * se;
  const double upper = std::log1p(options.equivalence_margin) - equivalence_half;
  const double lower = std::log1p(-options.equivalence_margin) + equivalence_half;
  const double same = lower < upper ? normal_below(upper, d, tau) - normal_below(lower, d, tau) : 0.0;
  return slower + faster + same;
}

std::optional<std::size_t> reachable_pairs(std::size_t pairs, double budget_left_seconds, double seconds_per_pair,
                                           std::size_t most) {
  if (!(seconds_per_pair > 0.0) || !std::isfinite(seconds_per_pair)) return std::nullopt;
  const double more = std::floor(std::max(0.0, budget_left_seconds) / seconds_per_pair);
  return static_cast<std::size_t>(std::min(static_cast<double>(pairs) + more, static_cast<double>(most)));
}

bool stop_if_futile(SequentialRow& row, std::size_t reachable_pairs, const PairedOptions& options) {
  if (row.stopped || row.decision.verdict != Verdict::inconclusive || !row.analysis) return false;
  row.chance_to_decide = chance_to_decide(*row.analysis, reachable_pairs, options);
  if (!row.chance_to_decide || !(*row.chance_to_decide < kFutilityChance)) return false;
  row.stopped = true;
  row.futile = true;
  row.reachable_pairs = reachable_pairs;
  return true;
}

}  // namespace gbx

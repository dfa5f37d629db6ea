// The planner of a paired, sequential comparison (plan_paired in stats/sequential.h).
#include <algorithm>
#include <cmath>

#include <boost/math/constants/constants.hpp>

#include "stats/hierarchical.h"
#include "stats/paired_detail.h"
#include "stats/sequential.h"

namespace gbx {
namespace {

constexpr double kMedianEfficiency = boost::math::constants::half_pi<double>();

double log_variance_of_cv(double cv) { return std::log1p(cv * cv); }

// The samples per block that balance a block's warm-up against its median's noise (the block-pair
// level of Kalibera & Jones's optimum), kept within [kMinSamplesPerBlock, kMaxBlockSeconds / c_s].
std::size_t samples_per_block(double within, double between_blocks, const PairedCosts& costs) {
  const double longest =
      std::max(static_cast<double>(kMinSamplesPerBlock), std::floor(kMaxBlockSeconds / costs.sample_seconds));
  double n = longest;
  if (between_blocks > 0.0 && costs.block_warmup_seconds > 0.0) {
    n = std::sqrt(kMedianEfficiency * 2.0 * within * costs.block_warmup_seconds /
                  (between_blocks * costs.sample_seconds));
  }
  return static_cast<std::size_t>(std::clamp(std::round(n), static_cast<double>(kMinSamplesPerBlock), longest));
}

}  // namespace

std::optional<PairedPlan> plan_paired(const PairedVariance& variance, const PairedCosts& costs, double budget_seconds,
                                      const SequentialDesign& design, std::size_t pairs_done) {
  const double between_pairs =
      variance.between_pairs ? *variance.between_pairs : log_variance_of_cv(kAssumedBetweenPairsCv);
  if (!(variance.within_block >= 0.0) || !(variance.between_blocks >= 0.0) || !(between_pairs >= 0.0) ||
      !(costs.sample_seconds > 0.0) || !(costs.block_warmup_seconds >= 0.0) || !(costs.pair_start_seconds >= 0.0) ||
      !(budget_seconds > 0.0) || !std::isfinite(budget_seconds)) {
    return std::nullopt;
  }
  PairedPlan plan;
  plan.samples_per_block = samples_per_block(variance.within_block, variance.between_blocks, costs);
  const double n = static_cast<double>(plan.samples_per_block);
  const double block_pair_variance = variance.between_blocks + kMedianEfficiency * variance.within_block * 2.0 / n;
  const double block_pair_seconds = 2.0 * (costs.block_warmup_seconds + n * costs.sample_seconds);
  // plan_replication wants positive costs and a positive between variance to place its optimum.
  const double pair_seconds = std::max(costs.pair_start_seconds, 1e-6);
  const double between = std::max(between_pairs, 1e-12);

  // Kalibera & Jones's optimum at this level does not depend on the target: B* block pairs per pair
  // (plan_replication's n*, the same formula), then as many pairs as the budget affords.
  const double optimum =
      std::sqrt(kMedianEfficiency * block_pair_variance * pair_seconds / (between * block_pair_seconds));
  auto block_pairs =
      static_cast<std::size_t>(std::clamp(std::round(optimum), 2.0, static_cast<double>(kMaxBlockPairsPerPair)));
  const double done = static_cast<double>(pairs_done);
  const auto affordable = [&](std::size_t b) {
    return done + std::floor(budget_seconds / (costs.pair_start_seconds + static_cast<double>(b) * block_pair_seconds));
  };
  // The pairs must reach 2, and at least one more must fit; B goes down only as far as that needs.
  const double needed = std::max(2.0, done + 1.0);
  while (block_pairs > 2 && affordable(block_pairs) < needed) --block_pairs;
  const double pairs = std::min(affordable(block_pairs), static_cast<double>(kPlanMaxProcesses));
  if (pairs < 2.0) {
    plan.fits_budget = false;
    plan.pairs = 2;
    plan.block_pairs_per_pair = 2;
  } else {
    plan.pairs = static_cast<std::size_t>(pairs);
    plan.block_pairs_per_pair = block_pairs;
    // plan_replication at the half-width these pairs reach: the least block pairs that still reach it
    // (never more than B*, so never over the budget).
    const double k = static_cast<double>(plan.pairs);
    const double variance_of_mean =
        (between + kMedianEfficiency * block_pair_variance / static_cast<double>(block_pairs)) / k;
    const double target = std::expm1(paired_detail::t_quantile(k - 1.0, 0.975) * std::sqrt(variance_of_mean));
    const auto replication = plan_replication(between, block_pair_variance, pair_seconds, block_pair_seconds, target);
    if (replication && replication->processes <= plan.pairs && replication->samples_per_process <= block_pairs &&
        replication->samples_per_process >= 2) {
      plan.block_pairs_per_pair = replication->samples_per_process;
    }
  }
  plan.looks = look_schedule(plan.pairs);
  plan.seconds_per_pair =
      costs.pair_start_seconds + static_cast<double>(plan.block_pairs_per_pair) * block_pair_seconds;
  plan.total_seconds = static_cast<double>(plan.pairs) * plan.seconds_per_pair;

  const double pair_sd = std::sqrt(between_pairs + kMedianEfficiency * block_pair_variance /
                                                       static_cast<double>(plan.block_pairs_per_pair));
  std::vector<double> fractions;
  for (std::size_t look : plan.looks) fractions.push_back(static_cast<double>(look) / static_cast<double>(plan.pairs));
  const auto z = spending_boundaries(fractions, design.options.alpha / 2.0, design.spending);
  if (z) {
    plan.expected_mde = minimum_detectable_change(pair_sd, plan.pairs, design.options.noise_band, design.options.alpha,
                                                  design.options.power, t_critical_for(z->back(), plan.pairs));
  }
  return plan;
}

}  // namespace gbx

// The planner of a paired, sequential comparison (plan_paired in stats/sequential.h).
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "stats/hierarchical.h"
#include "stats/paired_detail.h"
#include "stats/sequential.h"

namespace gbx {
namespace {

using paired_detail::kMedianEfficiency;

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

std::size_t plan_least_pairs(const SequentialDesign& design) {
  if (design.options.test == PairTest::t) return kPlanLeastPairs;
  return std::max(kPlanLeastPairs, exact_test_least_pairs(design.benchmarks, design.q));
}

std::optional<PairedPlan> plan_paired(const PairedVariance& variance, const PairedCosts& costs, double budget_seconds,
                                      const SequentialDesign& design, std::size_t pairs_done,
                                      std::optional<std::size_t> given_samples_per_block) {
  const double between_pairs =
      variance.between_pairs ? *variance.between_pairs : log_variance_of_cv(kAssumedBetweenPairsCv);
  if (!(variance.within_block >= 0.0) || !(variance.between_blocks >= 0.0) || !(between_pairs >= 0.0) ||
      !(costs.sample_seconds > 0.0) || !(costs.block_warmup_seconds >= 0.0) || !(costs.pair_start_seconds >= 0.0) ||
      !(budget_seconds > 0.0) || !std::isfinite(budget_seconds) || given_samples_per_block == std::size_t{0}) {
    return std::nullopt;
  }
  PairedPlan plan;
  plan.samples_per_block = given_samples_per_block
                               ? *given_samples_per_block
                               : samples_per_block(variance.within_block, variance.between_blocks, costs);
  const double n = static_cast<double>(plan.samples_per_block);
  const double block_pair_variance = variance.between_blocks + kMedianEfficiency * variance.within_block * 2.0 / n;
  const double block_pair_seconds = 2.0 * (costs.block_warmup_seconds + n * costs.sample_seconds);
  const double done = static_cast<double>(pairs_done);
  const auto pairs_at = [&](std::size_t b) {
    return std::min(
        done + std::floor(budget_seconds / (costs.pair_start_seconds + static_cast<double>(b) * block_pair_seconds)),
        static_cast<double>(kPlanMaxProcesses));
  };
  const auto pair_sd_at = [&](std::size_t b) {
    return std::sqrt(between_pairs + kMedianEfficiency * block_pair_variance / static_cast<double>(b));
  };
  // A split must leave 2 pairs in all and one more than those run; where B = 2 affords kPlanLeastPairs,
  // it must leave plan_least_pairs, or as many as B = 2 affords when that is fewer. pairs_at falls as B
  // grows, so B = 2 affords the most.
  const double most_pairs = pairs_at(2);
  const double least_pairs = most_pairs >= static_cast<double>(kPlanLeastPairs)
                                 ? std::min(static_cast<double>(plan_least_pairs(design)), most_pairs)
                                 : 2.0;
  // Each usable B's MDE, up to the factor that does not depend on B, with the pairs the budget then
  // affords. Where the pairs are many the least is Kalibera & Jones's optimum,
  // B* = sqrt((pi/2) v_bp c_pair / (sigma_pair^2 c_bp)); where they are few, the t quantiles grow and
  // pull B down (PlanPaired.WhereFewPairsFitItTradesBlockPairsForPairs: 3 pairs of 7 against 2 of 42).
  std::vector<std::optional<double>> mde_at(kMaxBlockPairsPerPair + 1);
  std::optional<double> least;
  for (std::size_t b = 2; b <= kMaxBlockPairsPerPair; ++b) {
    const double k = pairs_at(b);
    if (k < std::max(least_pairs, done + 1.0)) continue;
    mde_at[b] = (paired_detail::t_quantile(k - 1.0, 0.975) + paired_detail::t_quantile(k - 1.0, 0.9)) * pair_sd_at(b) /
                std::sqrt(k);
    least = std::min(least.value_or(*mde_at[b]), *mde_at[b]);
  }
  if (!least) {  // not even one more pair of 2 block pairs fits: the least, and the budget says so
    plan.fits_budget = false;
    plan.pairs = std::max<std::size_t>(2, pairs_done);
    plan.block_pairs_per_pair = 2;
  } else {
    // The fewest block pairs within kPlanMdeTolerance of the least MDE: the curve is flat about its
    // least, and more pairs replicate more.
    std::size_t b = 2;
    while (!(mde_at[b] && *mde_at[b] <= *least * (1.0 + kPlanMdeTolerance))) ++b;
    plan.block_pairs_per_pair = b;
    plan.pairs = static_cast<std::size_t>(pairs_at(b));
  }
  plan.looks = look_schedule(plan.pairs);
  plan.seconds_per_pair =
      costs.pair_start_seconds + static_cast<double>(plan.block_pairs_per_pair) * block_pair_seconds;
  plan.total_seconds = static_cast<double>(plan.pairs) * plan.seconds_per_pair;

  const double pair_sd = pair_sd_at(plan.block_pairs_per_pair);
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

#include "stats/paired.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "stats/paired_detail.h"
#include "stats/signed_rank.h"
#include "stats/statistics.h"

namespace gbx {

using namespace paired_detail;

namespace {

bool usable(const std::vector<double>& block) {
  if (block.empty()) return false;
  return std::all_of(block.begin(), block.end(), [](double x) { return std::isfinite(x) && x > 0.0; });
}

RatioInterval ratio_interval(double estimate, const LogInterval& bounds, double level, const char* method) {
  RatioInterval interval;
  interval.ratio = std::exp(clamp_log(estimate));
  interval.lower = std::exp(clamp_log(bounds.lower));
  interval.upper = std::exp(clamp_log(bounds.upper));
  interval.level = level;
  interval.method = method;
  return interval;
}

bool options_valid(const PairedOptions& options) {
  const auto in_unit = [](double x) { return x > 0.0 && x < 1.0; };
  return in_unit(options.alpha) && in_unit(options.equivalence_alpha) && in_unit(options.power) &&
         options.noise_band >= 0.0 && options.noise_band < 1.0 && options.equivalence_margin > 0.0 &&
         options.equivalence_margin < 1.0;
}

}  // namespace

namespace paired_detail {

double robust_spread(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  const double center = *median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - center));
  return kMadToSigma * *median(deviations);
}

std::vector<double> winsorised(std::vector<double> log_ratios, const std::optional<BlockRatioBounds>& bounds) {
  if (bounds) {
    for (double& d : log_ratios) d = std::clamp(d, bounds->lower, bounds->upper);
  }
  return log_ratios;
}

double clamp_log(double value) { return std::clamp(value, -kMaxAbsLogRatio, kMaxAbsLogRatio); }

double t_quantile(double degrees_of_freedom, double p) {
  return boost::math::quantile(StudentT(degrees_of_freedom), p);
}

double sample_sd(const std::vector<double>& values) { return std::sqrt(*variance(values)); }

BlockRatios block_ratios(const WorkerPairBlocks& pair) {
  BlockRatios ratios;
  for (std::size_t i = 0; i < pair.block_pairs.size(); ++i) {
    const BlockPair& block_pair = pair.block_pairs[i];
    if (!usable(block_pair.base) || !usable(block_pair.candidate)) continue;
    ratios.block_pair_index.push_back(i);
    const double base = std::log(*median(block_pair.base));
    const double candidate = std::log(*median(block_pair.candidate));
    ratios.log_ratios.push_back(candidate - base);
    ratios.candidate_first.push_back(block_pair.candidate_first);
    ratios.base_log_medians.push_back(base);
    ratios.candidate_log_medians.push_back(candidate);
  }
  return ratios;
}

std::optional<BlockRatioBounds> pooled_bounds_of(const std::vector<BlockRatios>& pairs, double noise_band) {
  std::vector<double> pooled;
  std::size_t pairs_with_ratios = 0;
  for (const BlockRatios& ratios : pairs) {
    if (!ratios.log_ratios.empty()) ++pairs_with_ratios;
    pooled.insert(pooled.end(), ratios.log_ratios.begin(), ratios.log_ratios.end());
  }
  if (pairs_with_ratios < 2 || pooled.size() < kMinPooledBlockPairs || !(noise_band >= 0.0)) return std::nullopt;
  const double center = *median(pooled);
  const double half_width = std::max(kWinsorSpreads * robust_spread(pooled), std::log1p(noise_band));
  return BlockRatioBounds{center - half_width, center + half_width};
}

std::optional<PairEstimate> estimate_from(const WorkerPairBlocks& pair, const BlockRatios& ratios,
                                          const std::optional<BlockRatioBounds>& bounds) {
  if (ratios.log_ratios.empty()) return std::nullopt;
  const std::vector<double> d = winsorised(ratios.log_ratios, bounds);

  PairEstimate estimate;
  estimate.block_pairs = d.size();
  for (std::size_t j = 0; j < d.size(); ++j) {
    if (d[j] != ratios.log_ratios[j]) ++estimate.winsorised;
  }
  std::vector<double> cand_first_ratios;
  std::vector<double> base_first_ratios;
  for (std::size_t j = 0; j < d.size(); ++j) {
    (ratios.candidate_first[j] ? cand_first_ratios : base_first_ratios).push_back(d[j]);
  }
  estimate.candidate_first = cand_first_ratios.size();
  if (cand_first_ratios.empty() || base_first_ratios.empty()) {
    estimate.log_ratio = *median(d);
  } else {
    estimate.log_ratio = 0.5 * (*median(cand_first_ratios) + *median(base_first_ratios));
  }
  estimate.block_log_ratio_spread = robust_spread(d);

  std::vector<double> residuals;  // |log x - log median(block)|, pooled over the usable blocks
  for (std::size_t j = 0; j < d.size(); ++j) {
    const BlockPair& block_pair = pair.block_pairs[ratios.block_pair_index[j]];
    for (double x : block_pair.base) residuals.push_back(std::fabs(std::log(x) - ratios.base_log_medians[j]));
    for (double x : block_pair.candidate) residuals.push_back(std::fabs(std::log(x) - ratios.candidate_log_medians[j]));
    estimate.base_samples += block_pair.base.size();
    estimate.candidate_samples += block_pair.candidate.size();
  }
  estimate.within_block_log_spread = kMadToSigma * *median(residuals);
  return estimate;
}

PairedVariance paired_variance(const std::vector<PairEstimate>& estimates, const std::vector<double>& x) {
  PairedVariance variance;
  if (estimates.empty()) return variance;
  double within = 0.0;
  double samples = 0.0;
  double block_pairs = 0.0;
  for (const PairEstimate& e : estimates) {
    within += e.within_block_log_spread * e.within_block_log_spread;
    samples += static_cast<double>(e.base_samples + e.candidate_samples);
    block_pairs += static_cast<double>(e.block_pairs);
  }
  const double k = static_cast<double>(estimates.size());
  variance.within_block = within / k;
  variance.mean_block_pairs_per_pair = block_pairs / k;
  variance.mean_samples_per_block = samples / (2.0 * block_pairs);

  // Between block pairs: the spread of d_j less the two blocks' median noise.
  double between_blocks = 0.0;
  double with_spread = 0.0;
  double explained_by_blocks = 0.0;  // the block-level share of var(x_k)
  for (const PairEstimate& e : estimates) {
    const double spread_sq = e.block_log_ratio_spread * e.block_log_ratio_spread;
    explained_by_blocks += kMedianEfficiency * spread_sq / static_cast<double>(e.block_pairs);
    if (e.block_pairs < 2) continue;
    const double per_block =
        static_cast<double>(e.base_samples + e.candidate_samples) / (2.0 * static_cast<double>(e.block_pairs));
    between_blocks += spread_sq - kMedianEfficiency * variance.within_block * 2.0 / per_block;
    with_spread += 1.0;
  }
  if (with_spread > 0.0) variance.between_blocks = std::max(0.0, between_blocks / with_spread);
  variance.from_blocks = explained_by_blocks / k;
  // A sample variance, not a robust one: a process slow all through (a layout that makes a kernel 10%
  // slower) is variance between pairs that only more pairs average out. A robust spread would hide it,
  // and the planner would put the budget into block pairs where pairs are needed.
  if (x.size() >= 2) {
    const double sd = sample_sd(x);
    variance.between_pairs = std::max(0.0, sd * sd - variance.from_blocks);
  }
  return variance;
}

}  // namespace paired_detail

WorkerPairBlocks pair_blocks(const std::vector<SideBlock>& blocks) {
  WorkerPairBlocks pair;
  for (std::size_t i = 0; i + 1 < blocks.size(); i += 2) {
    const SideBlock& first = blocks[i];
    const SideBlock& second = blocks[i + 1];
    if (first.side == second.side) continue;
    BlockPair block_pair;
    block_pair.candidate_first = first.side == PairedSide::candidate;
    block_pair.base = block_pair.candidate_first ? second.samples : first.samples;
    block_pair.candidate = block_pair.candidate_first ? first.samples : second.samples;
    block_pair.start_seconds = std::min(first.start_seconds, second.start_seconds);
    pair.block_pairs.push_back(std::move(block_pair));
  }
  return pair;
}

std::optional<BlockRatioBounds> pooled_block_ratio_bounds(const std::vector<WorkerPairBlocks>& pairs,
                                                          double noise_band) {
  std::vector<BlockRatios> ratios;
  ratios.reserve(pairs.size());
  for (const WorkerPairBlocks& pair : pairs) ratios.push_back(block_ratios(pair));
  return pooled_bounds_of(ratios, noise_band);
}

std::optional<PairEstimate> estimate_pair(const WorkerPairBlocks& pair, const std::optional<BlockRatioBounds>& bounds) {
  return estimate_from(pair, block_ratios(pair), bounds);
}

std::optional<LogInterval> mean_interval(const std::vector<double>& values, double critical) {
  if (values.size() < 2 || !all_finite(values) || !std::isfinite(critical)) return std::nullopt;
  const double center = *mean(values);
  const double half = critical * sample_sd(values) / std::sqrt(static_cast<double>(values.size()));
  return LogInterval{center - half, center + half, critical};
}

std::optional<double> t_test_p_value(const std::vector<double>& values) {
  if (values.size() < 2 || !all_finite(values)) return std::nullopt;
  const double center = *mean(values);
  const double sd = sample_sd(values);
  if (!(sd > 0.0)) return center == 0.0 ? 1.0 : 0.0;
  const double t = center / (sd / std::sqrt(static_cast<double>(values.size())));
  const StudentT law(static_cast<double>(values.size() - 1));
  return std::clamp(2.0 * boost::math::cdf(boost::math::complement(law, std::fabs(t))), 0.0, 1.0);
}

std::optional<double> sign_flip_p_value(const std::vector<double>& values) {
  const std::size_t k = values.size();
  if (k == 0 || k > kSignFlipMaxEnumerated || !all_finite(values)) return std::nullopt;
  double observed = 0.0;
  double scale = 0.0;
  for (double v : values) {
    observed += v;
    scale += std::fabs(v);
  }
  const double threshold = std::fabs(observed) - 1e-12 * scale;
  // Gray code: each step flips one sign, so each of the 2^k sums costs one addition.
  double sum = observed;
  std::vector<int> sign(k, 1);
  const std::uint64_t total = std::uint64_t{1} << k;
  std::uint64_t extreme = std::fabs(sum) >= threshold ? 1 : 0;
  for (std::uint64_t step = 1; step < total; ++step) {
    std::size_t bit = 0;
    while (((step >> bit) & 1u) == 0) ++bit;
    sum -= 2.0 * sign[bit] * values[bit];
    sign[bit] = -sign[bit];
    if (std::fabs(sum) >= threshold) ++extreme;
  }
  return static_cast<double>(extreme) / static_cast<double>(total);
}

std::optional<double> minimum_detectable_change(double sd, std::size_t pairs, double noise_band, double alpha,
                                                double power, std::optional<double> critical) {
  if (pairs < 2 || !(sd >= 0.0) || !std::isfinite(sd) || !(alpha > 0.0 && alpha < 1.0) ||
      !(power > 0.0 && power < 1.0) || !(noise_band >= 0.0)) {
    return std::nullopt;
  }
  const double degrees = static_cast<double>(pairs - 1);
  const double c = critical ? *critical : t_quantile(degrees, 1.0 - alpha / 2.0);
  if (!std::isfinite(c)) return std::nullopt;
  const double log_change =
      std::log1p(noise_band) + (c + t_quantile(degrees, power)) * sd / std::sqrt(static_cast<double>(pairs));
  return std::expm1(clamp_log(log_change));
}

std::optional<std::size_t> pairs_for_detectable_change(double sd, std::size_t pairs, double target,
                                                       const PairedOptions& options) {
  const auto mde_at = [&](std::size_t k) {
    return minimum_detectable_change(sd, k, options.noise_band, options.alpha, options.power);
  };
  const auto now = mde_at(pairs);
  if (!now || !(sd > 0.0) || !(target > options.noise_band) || *now <= target) return std::nullopt;
  const auto far = mde_at(kMostPairsForDetectableChange);
  if (!far || *far > target) return std::nullopt;
  // The MDE falls as K grows (sd / sqrt(K), and the t quantiles with it): bisect for the least K.
  std::size_t above = pairs;  // MDE > target here
  std::size_t within = kMostPairsForDetectableChange;
  while (within - above > 1) {
    const std::size_t middle = above + (within - above) / 2;
    (*mde_at(middle) <= target ? within : above) = middle;
  }
  return within;
}

double within_block_log_spread(const std::vector<double>& samples) {
  std::vector<double> logs;
  for (double x : samples) {
    if (std::isfinite(x) && x > 0.0) logs.push_back(std::log(x));
  }
  return robust_spread(logs);
}

std::optional<PairedAnalysis> analyze_pairs(const std::vector<WorkerPairBlocks>& pairs, const PairedOptions& options) {
  if (!options_valid(options)) return std::nullopt;
  PairedAnalysis analysis;
  std::vector<double> x;
  std::vector<BlockRatios> ratios;
  ratios.reserve(pairs.size());
  for (const WorkerPairBlocks& pair : pairs) ratios.push_back(block_ratios(pair));
  analysis.block_ratio_bounds = pooled_bounds_of(ratios, options.noise_band);
  std::size_t only_pair = 0;                       // the last pair with an estimate
  std::vector<PairBlockLogRatios> weighted_input;  // of the pairs with an estimate, for the weighted test
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    std::optional<PairEstimate> estimate = estimate_from(pairs[k], ratios[k], analysis.block_ratio_bounds);
    if (!estimate) continue;
    if (options.test == PairTest::weighted) {
      weighted_input.push_back(
          {winsorised(ratios[k].log_ratios, analysis.block_ratio_bounds), ratios[k].candidate_first});
    }
    x.push_back(estimate->log_ratio);
    analysis.base_samples += estimate->base_samples;
    analysis.candidate_samples += estimate->candidate_samples;
    analysis.estimates.push_back(*estimate);
    only_pair = k;
  }
  if (x.empty()) return std::nullopt;
  analysis.pairs = x.size();
  analysis.replicated = x.size() >= 2;
  analysis.mean_log_ratio = *mean(x);
  analysis.ratio = std::exp(clamp_log(analysis.mean_log_ratio));
  analysis.variance = paired_variance(analysis.estimates, x);

  const double difference_level = 1.0 - options.alpha;
  const double equivalence_level = 1.0 - 2.0 * options.equivalence_alpha;
  // K = 1: the only evidence on the noise is the spread between that pair's block pairs.
  const std::vector<double>& values = analysis.replicated ? x : ratios[only_pair].log_ratios;
  const char* method = analysis.replicated ? "paired-t-log-ratios" : "within-pair-t-block-ratios";
  if (values.size() >= 2) {
    const double degrees = static_cast<double>(values.size() - 1);
    const auto difference = mean_interval(values, t_quantile(degrees, 1.0 - options.alpha / 2.0));
    const auto equivalence = mean_interval(values, t_quantile(degrees, 1.0 - options.equivalence_alpha));
    const double center = analysis.replicated ? analysis.mean_log_ratio : *mean(values);
    if (difference) analysis.difference_interval = ratio_interval(center, *difference, difference_level, method);
    if (equivalence) analysis.equivalence_interval = ratio_interval(center, *equivalence, equivalence_level, method);
    analysis.p_t = t_test_p_value(values).value_or(1.0);
  }
  if (analysis.replicated) {
    analysis.sd_log_ratio = sample_sd(x);
    analysis.se_log_ratio = *analysis.sd_log_ratio / std::sqrt(static_cast<double>(x.size()));
    if (x.size() <= kSignFlipMaxPairs) analysis.p_sign_flip = sign_flip_p_value(x);
    analysis.p_value = analysis.p_sign_flip ? *analysis.p_sign_flip : analysis.p_t;
    analysis.test = analysis.p_sign_flip ? "sign-flip-exact" : "paired-t";
    if (options.test == PairTest::signed_rank && x.size() <= kSignedRankMaxPairs) {
      const auto difference = signed_rank_ratio_interval(x, options.alpha / 2.0, difference_level);
      const auto equivalence = signed_rank_ratio_interval(x, options.equivalence_alpha, equivalence_level);
      const auto p = signed_rank_p_value(x);
      const auto se = signed_rank_standard_error(x);
      if (difference && equivalence && p && se) {
        analysis.signed_rank = true;
        analysis.difference_interval = difference;
        analysis.equivalence_interval = equivalence;
        analysis.ratio = difference->ratio;
        analysis.p_value = *p;
        analysis.test = "signed-rank-exact";
        analysis.se_log_ratio = se;
      }
    }
    if (options.test == PairTest::weighted) analyze_weighted(analysis, weighted_input, options);
    analysis.mde = minimum_detectable_change(*analysis.se_log_ratio * std::sqrt(static_cast<double>(x.size())),
                                             analysis.pairs, options.noise_band, options.alpha, options.power);
  } else {
    analysis.p_value = analysis.p_t;
    analysis.test = "within-pair-t";
  }
  return analysis;
}

}  // namespace gbx

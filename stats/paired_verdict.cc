// The paired verdict and what an undecided row's numbers say (stats/paired.h); ab/ words them.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "stats/paired.h"
#include "stats/paired_detail.h"
#include "stats/statistics.h"

namespace gbx {

using namespace paired_detail;

PairedDecision decide_paired(const RatioInterval& difference, const RatioInterval& equivalence, bool replicated,
                             std::size_t base_samples, std::size_t candidate_samples, double adjusted_p,
                             const PairedOptions& options, double q) {
  PairedDecision decision;
  if (base_samples < kMinSamplesPerSide || candidate_samples < kMinSamplesPerSide) {
    decision.verdict = Verdict::insufficient;
    return decision;
  }
  const double margin = options.equivalence_margin;
  decision.within_margin = equivalence.lower >= 1.0 - margin && equivalence.upper <= 1.0 + margin;
  Verdict verdict = Verdict::inconclusive;
  if (adjusted_p <= q && beyond_noise_band(difference.lower, difference.upper, options.noise_band)) {
    verdict = difference.lower > 1.0 ? Verdict::slower : Verdict::faster;
  } else if (decision.within_margin) {
    verdict = Verdict::same;
  }
  // One pair measured no process-level noise: a change and an equivalence alike are unreplicated.
  if (!replicated && verdict != Verdict::inconclusive) verdict = Verdict::unreplicated;
  decision.verdict = verdict;
  return decision;
}

PairedDecision decide_paired(const PairedAnalysis& analysis, double adjusted_p, const PairedOptions& options,
                             double q) {
  if (!analysis.difference_interval || !analysis.equivalence_interval) {
    PairedDecision decision;
    decision.verdict = Verdict::insufficient;
    return decision;
  }
  return decide_paired(*analysis.difference_interval, *analysis.equivalence_interval, analysis.replicated,
                       analysis.base_samples, analysis.candidate_samples, adjusted_p, options, q);
}

std::optional<NoiseSource> noise_source(const PairedVariance& variance) {
  if (!variance.between_pairs) return std::nullopt;
  NoiseSource source;
  source.level =
      *variance.between_pairs > variance.from_blocks ? NoiseLevel::between_processes : NoiseLevel::within_processes;
  source.between_pairs_sd = std::sqrt(*variance.between_pairs);
  source.from_blocks_sd = std::sqrt(variance.from_blocks);
  source.between_blocks_sd = std::sqrt(variance.between_blocks);
  return source;
}

bool beyond_noise_band(double lower, double upper, double noise_band) {
  return lower > 1.0 + noise_band || upper < 1.0 - noise_band;
}

bool exact_test(const std::string& test) {
  constexpr std::string_view kSuffix = "-exact";
  return test.size() > kSuffix.size() && test.compare(test.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

double exact_least_p(std::size_t pairs) {
  return std::ldexp(1.0, 1 - static_cast<int>(std::min<std::size_t>(pairs, 1000)));
}

std::size_t exact_test_least_pairs(std::size_t benchmarks, double q) {
  const double level = q > 0.0 && q <= 1.0 ? q : 0.05;
  const double m = static_cast<double>(std::max<std::size_t>(benchmarks, 1));
  std::size_t pairs = 1;
  while (exact_least_p(pairs) > level / m && pairs < 1000) ++pairs;
  return pairs;
}

std::optional<RatioInterval> geometric_mean_ratio(const std::vector<double>& log_ratios, double level) {
  if (log_ratios.size() < 2 || !(level > 0.0 && level < 1.0)) return std::nullopt;
  const double degrees = static_cast<double>(log_ratios.size() - 1);
  const auto bounds = mean_interval(log_ratios, t_quantile(degrees, (1.0 + level) / 2.0));
  if (!bounds) return std::nullopt;
  RatioInterval interval;
  interval.ratio = std::exp(clamp_log(*mean(log_ratios)));
  interval.lower = std::exp(clamp_log(bounds->lower));
  interval.upper = std::exp(clamp_log(bounds->upper));
  interval.level = level;
  interval.method = "t-mean-log-ratio-over-benchmarks";
  return interval;
}

}  // namespace gbx

// The weighted side of the paired analysis (stats/paired.h, stats/weighted_pairs.h).
#include <algorithm>
#include <cmath>

#include "stats/paired.h"
#include "stats/paired_detail.h"
#include "stats/weighted_pairs.h"

namespace gbx {

using namespace paired_detail;

namespace {

RatioInterval ratio_of(double centre, const WeightedInterval& interval, double level, const std::string& method) {
  RatioInterval made;
  made.ratio = std::exp(clamp_log(centre));
  made.lower = std::exp(clamp_log(interval.lower));  // an unbounded side clamps to e^-50, e^50
  made.upper = std::exp(clamp_log(interval.upper));
  made.level = level;
  made.method = method;
  return made;
}

}  // namespace

namespace paired_detail {

std::optional<RatioIntervals> weighted_ratio_intervals(const WeightedPairs& pairs, double difference_one_sided,
                                                       double equivalence_one_sided, const PairedOptions& options,
                                                       const std::string& method_prefix) {
  const bool exact = pairs.log_ratios.size() <= kWeightedSignFlipMaxPairs;
  const auto interval = [&](double one_sided) {
    return exact ? weighted_sign_flip_interval(pairs, one_sided) : hksj_interval(pairs, one_sided);
  };
  const auto difference = interval(difference_one_sided);
  const auto equivalence = interval(equivalence_one_sided);
  if (!difference || !equivalence) return std::nullopt;
  const std::string method = method_prefix + (exact ? "weighted-sign-flip" : "weighted-hksj");
  return RatioIntervals{ratio_of(pairs.centre, *difference, 1.0 - options.alpha, method),
                        ratio_of(pairs.centre, *equivalence, 1.0 - 2.0 * options.equivalence_alpha, method)};
}

bool analyze_weighted(PairedAnalysis& analysis, const std::vector<PairBlockLogRatios>& pairs,
                      const PairedOptions& options) {
  std::vector<double> x;
  x.reserve(analysis.estimates.size());
  for (const PairEstimate& e : analysis.estimates) x.push_back(e.log_ratio);
  const std::vector<double> v = pair_variances(pairs);
  if (x.size() < 2 || v.size() != x.size()) return false;
  const auto weighted = guarded_weights(x, v, std::log1p(options.noise_band));
  if (!weighted) return false;
  const auto intervals =
      weighted_ratio_intervals(*weighted, options.alpha / 2.0, options.equivalence_alpha, options, "");
  if (!intervals) return false;
  const double se = *hksj_standard_error(*weighted);  // K >= 2 here
  const std::size_t k = x.size();
  // The p-value of the same test: the weighted sums' sign flips, exact (2^K sums); t beyond.
  std::optional<double> p;
  if (k <= kWeightedSignFlipMaxPairs) {
    std::vector<double> products;
    for (std::size_t i = 0; i < k; ++i) products.push_back(weighted->weights[i] * weighted->log_ratios[i]);
    p = sign_flip_p_value(products);
  } else if (se > 0.0) {
    const StudentT law(static_cast<double>(k - 1));
    p = std::clamp(2.0 * boost::math::cdf(boost::math::complement(law, std::fabs(weighted->centre) / se)), 0.0, 1.0);
  } else {
    p = weighted->centre == 0.0 ? 1.0 : 0.0;
  }
  if (!p) return false;
  analysis.weighted = *weighted;
  analysis.ratio = intervals->difference.ratio;
  analysis.difference_interval = intervals->difference;
  analysis.equivalence_interval = intervals->equivalence;
  analysis.p_value = *p;
  analysis.test = k <= kWeightedSignFlipMaxPairs ? "weighted-sign-flip-exact" : "weighted-hksj-t";
  analysis.se_log_ratio = se;
  return true;
}

}  // namespace paired_detail

}  // namespace gbx

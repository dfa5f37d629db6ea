#include "stats/weighted_pairs.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "stats/paired.h"
#include "stats/paired_detail.h"
#include "stats/statistics.h"

namespace gbx {

namespace {

using paired_detail::kMadToSigma;
using paired_detail::kMedianEfficiency;

// The variance of a median of n values relative to a mean's: pi / 2 from 3 on, 1 for one or two (a mean).
double median_efficiency(std::size_t n) { return n <= 2 ? 1.0 : kMedianEfficiency; }

double median_or_zero(std::vector<double> values) { return median(std::move(values)).value_or(0.0); }

struct Weighted {
  double mean = 0.0;
  double q = 0.0;  // sum w (x - mean)^2
  double weight = 0.0;
};

Weighted weighted(const std::vector<double>& x, const std::vector<double>& v, double tau2) {
  Weighted out;
  double sum = 0.0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    out.weight += 1.0 / (v[k] + tau2);
    sum += x[k] / (v[k] + tau2);
  }
  out.mean = sum / out.weight;
  for (std::size_t k = 0; k < x.size(); ++k) out.q += (x[k] - out.mean) * (x[k] - out.mean) / (v[k] + tau2);
  return out;
}

}  // namespace

std::vector<double> pair_variances(const std::vector<PairBlockLogRatios>& pairs) {
  struct Spread {
    double sigma2 = 0.0;
    bool own = false;
    std::size_t candidate_first = 0;
    std::size_t base_first = 0;
  };
  std::vector<Spread> spreads;
  std::vector<double> own;
  for (const auto& pair : pairs) {
    const std::size_t b = pair.log_ratios.size();
    if (b == 0 || pair.candidate_first.size() != b) return {};
    std::vector<double> first[2];  // [0] base first, [1] candidate first
    for (std::size_t j = 0; j < b; ++j) first[pair.candidate_first[j] ? 1 : 0].push_back(pair.log_ratios[j]);
    Spread s;
    s.base_first = first[0].size();
    s.candidate_first = first[1].size();
    if (b >= 3) {
      std::vector<double> deviations;  // |d_j - its order's median|
      for (const auto& order : first) {
        const double centre = median_or_zero(order);
        for (double d : order) deviations.push_back(std::fabs(d - centre));
      }
      const double sigma = kMadToSigma * median_or_zero(std::move(deviations));
      s.sigma2 = sigma * sigma;
      s.own = true;
      own.push_back(s.sigma2);
    }
    spreads.push_back(s);
  }
  const double pooled = median_or_zero(own);
  std::vector<double> variances;
  variances.reserve(spreads.size());
  for (const Spread& s : spreads) {
    const std::size_t b = s.base_first + s.candidate_first;
    const bool both = s.base_first > 0 && s.candidate_first > 0;
    const double df = static_cast<double>(b) - (both ? 2.0 : 1.0);
    const double sigma2 = s.own ? (df * s.sigma2 + kPooledPseudoPairs * pooled) / (df + kPooledPseudoPairs) : pooled;
    if (both) {
      const auto nc = static_cast<double>(s.candidate_first);
      const auto nb = static_cast<double>(s.base_first);
      variances.push_back(sigma2 / 4.0 *
                          (median_efficiency(s.candidate_first) / nc + median_efficiency(s.base_first) / nb));
    } else {
      variances.push_back(sigma2 * median_efficiency(b) / static_cast<double>(b));
    }
  }
  return variances;
}

std::optional<double> paule_mandel_tau2(const std::vector<double>& x, const std::vector<double>& v) {
  if (x.size() < 2 || v.size() != x.size()) return std::nullopt;
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (!std::isfinite(x[k]) || !std::isfinite(v[k]) || !(v[k] > 0.0)) return std::nullopt;
  }
  const double target = static_cast<double>(x.size() - 1);
  if (weighted(x, v, 0.0).q <= target) return 0.0;
  // Q falls from Q(0) > K - 1 towards 0 as tau^2 grows: double an upper bound until it is below, then bisect.
  double low = 0.0;
  double high = *std::max_element(v.begin(), v.end());
  while (weighted(x, v, high).q > target) {
    low = high;
    high *= 2.0;
  }
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double middle = 0.5 * (low + high);
    (weighted(x, v, middle).q > target ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

std::optional<WeightedPairs> guarded_weights(const std::vector<double>& x, const std::vector<double>& v,
                                             double log_noise_band) {
  if (!(log_noise_band >= 0.0) || x.size() < 2 || v.size() != x.size()) return std::nullopt;
  WeightedPairs out;
  const double centre = median_or_zero(x);
  const double half = std::max(kWinsorSpreads * paired_detail::robust_spread(x), log_noise_band);
  for (double value : x) out.log_ratios.push_back(std::clamp(value, centre - half, centre + half));
  const double typical = std::max(median_or_zero(v), kMinPairVariance);
  std::vector<double> floored;
  floored.reserve(v.size());
  for (double value : v) floored.push_back(std::max(value, typical));
  const auto tau2 = paule_mandel_tau2(out.log_ratios, floored);
  if (!tau2) return std::nullopt;
  out.tau2 = *tau2;
  for (double value : floored) out.weights.push_back(1.0 / (value + out.tau2));
  out.centre = weighted(out.log_ratios, floored, out.tau2).mean;
  return out;
}

std::optional<WeightedInterval> weighted_sign_flip_interval(const WeightedPairs& pairs, double one_sided_alpha) {
  const std::size_t k = pairs.log_ratios.size();
  if (k == 0 || k > kWeightedSignFlipMaxPairs || pairs.weights.size() != k || !(one_sided_alpha > 0.0) ||
      !(one_sided_alpha < 0.5)) {
    return std::nullopt;
  }
  for (double w : pairs.weights) {
    if (!(w > 0.0) || !std::isfinite(w)) return std::nullopt;
  }
  const std::size_t subsets = std::size_t{1} << k;
  const auto c = static_cast<std::size_t>(std::floor(one_sided_alpha * static_cast<double>(subsets)));
  WeightedInterval out;
  if (c == 0) {
    out.lower = -HUGE_VAL;
    out.upper = HUGE_VAL;
    return out;
  }
  // Every non-empty subset's sums, each from the subset without its lowest member.
  std::vector<double> weighted_sum(subsets, 0.0);
  std::vector<double> weight(subsets, 0.0);
  std::vector<double> means;
  means.reserve(subsets - 1);
  for (std::size_t mask = 1; mask < subsets; ++mask) {
    const auto lowest = static_cast<std::size_t>(__builtin_ctzll(static_cast<unsigned long long>(mask)));
    const std::size_t rest = mask & (mask - 1);
    weight[mask] = weight[rest] + pairs.weights[lowest];
    weighted_sum[mask] = weighted_sum[rest] + pairs.weights[lowest] * pairs.log_ratios[lowest];
    means.push_back(weighted_sum[mask] / weight[mask]);
  }
  // m_(c) and m_(2^K - c), 1-based among the 2^K - 1 means.
  std::nth_element(means.begin(), means.begin() + static_cast<std::ptrdiff_t>(c - 1), means.end());
  out.lower = means[c - 1];
  const std::size_t upper = subsets - c - 1;
  std::nth_element(means.begin(), means.begin() + static_cast<std::ptrdiff_t>(upper), means.end());
  out.upper = means[upper];
  out.bounded = true;
  return out;
}

std::optional<double> hksj_standard_error(const WeightedPairs& pairs) {
  const std::size_t k = pairs.log_ratios.size();
  if (k < 2 || pairs.weights.size() != k) return std::nullopt;
  double sum_w = 0.0;
  double q = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    sum_w += pairs.weights[i];
    q += pairs.weights[i] * (pairs.log_ratios[i] - pairs.centre) * (pairs.log_ratios[i] - pairs.centre);
  }
  return std::sqrt(q / (static_cast<double>(k - 1) * sum_w));
}

std::optional<WeightedInterval> hksj_interval(const WeightedPairs& pairs, double one_sided_alpha) {
  const std::size_t k = pairs.log_ratios.size();
  const auto standard_error = hksj_standard_error(pairs);
  if (!standard_error || !(one_sided_alpha > 0.0) || !(one_sided_alpha < 0.5)) return std::nullopt;
  const double se = *standard_error;
  const double t = paired_detail::t_quantile(static_cast<double>(k - 1), 1.0 - one_sided_alpha);
  WeightedInterval out;
  out.lower = pairs.centre - t * se;
  out.upper = pairs.centre + t * se;
  out.bounded = std::isfinite(out.lower) && std::isfinite(out.upper);
  return out;
}

}  // namespace gbx

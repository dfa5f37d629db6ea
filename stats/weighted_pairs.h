#pragma once

#include <cstddef>
#include <optional>
#include <vector>

// Pairs weighted by their precision, for the test across the worker pairs of a paired comparison
// (stats/paired.h). Why: a pair of 2 block pairs is far noisier than one of 40, yet the signed rank
// weighs them alike. Offline, on 360 recorded rows, guarded weights narrowed the unchanged rows'
// intervals by a quarter and kept the false calls as rare (docs/gating-statistics.md, "Evidence"), so
// it is gbx ab's default test (PairTest::weighted).

namespace gbx {

// One pair's block-pair log ratios d_j (already winsorised to the row's pooled bounds) and, for each,
// whether the candidate ran first.
struct PairBlockLogRatios {
  std::vector<double> log_ratios;
  std::vector<bool> candidate_first;
};

// The variance of each pair's order-balanced median x_k, from its own block pairs:
// - sigma_k = 1.4826 x the MAD of its d_j about their own order's median (an order effect is not noise),
//   for a pair of at least 3 block pairs;
// - shrunk towards the row's pooled sigma^2 (the median of those sigma_k^2) with kPooledPseudoPairs
//   pseudo degrees of freedom: (df sigma_k^2 + 4 pooled) / (df + 4), df = B - 2 with both orders, B - 1
//   with one; a pair below 3 block pairs takes the pooled one;
// - v_k = sigma^2 / 4 (e(n_c) / n_c + e(n_b) / n_b) with both orders (the mean of two medians), else
//   sigma^2 e(B) / B; e(n) = pi / 2 for a median of 3 or more, 1 for one of 1 or 2 (a mean).
// Empty when a pair has no block pair or its two vectors differ in length; 0 for every pair when no pair
// has 3 block pairs.
inline constexpr double kPooledPseudoPairs = 4.0;
std::vector<double> pair_variances(const std::vector<PairBlockLogRatios>& pairs);

// The between-pair variance tau^2 by Paule and Mandel: 0 when Q(0) = sum w_k (x_k - mu_w)^2 <= K - 1,
// else the root of Q(tau^2) = K - 1 with w_k = 1 / (v_k + tau^2) (bisection to a relative 1e-12).
// Absent for fewer than 2 pairs, sizes that differ, or a v_k that is not positive and finite.
std::optional<double> paule_mandel_tau2(const std::vector<double>& x, const std::vector<double>& v);

// The guarded weights: each x_k winsorised to med(x) -/+ max(kWinsorSpreads 1.4826 MAD(x), noise band
// on the log scale), and each v_k floored at the median v (and at kMinPairVariance), so that one pair
// never outweighs a typical one (a pair whose d_j were all pulled to one bound, or tie on a coarse
// clock, has a spread of 0) and one slow process keeps only its rank's worth of pull; then tau^2
// (Paule-Mandel) over the guarded values, w_k = 1 / (v_k + tau^2), and the centre sum w x / sum w.
// kMinPairVariance: an sd of 1e-6 on the log scale, far below any timer's step.
inline constexpr double kMinPairVariance = 1e-12;
struct WeightedPairs {
  std::vector<double> log_ratios;  // guarded
  std::vector<double> weights;
  double tau2 = 0.0;
  double centre = 0.0;
};
// Absent as paule_mandel_tau2 is, or for a negative band.
std::optional<WeightedPairs> guarded_weights(const std::vector<double>& x, const std::vector<double>& v,
                                             double log_noise_band);

struct WeightedInterval {
  double lower = 0.0;  // log ratios
  double upper = 0.0;
  bool bounded = false;  // false: too few pairs for the level, the bounds -/+ infinity
};

// The exact weighted sign-flip interval about the centre: the 2^K - 1 non-empty subset means
// sum_A w x / sum_A w, sorted; with c = floor(one_sided_alpha 2^K), [m_(c), m_(2^K - c)] (Hartigan's
// subset means, weighted), unbounded when c = 0. Distribution-free given the weights, like the signed
// rank's. Absent beyond kWeightedSignFlipMaxPairs pairs, for one_sided_alpha outside (0, 0.5), or
// weights that are not positive.
inline constexpr std::size_t kWeightedSignFlipMaxPairs = 20;
std::optional<WeightedInterval> weighted_sign_flip_interval(const WeightedPairs& pairs, double one_sided_alpha);

// The Hartung-Knapp-Sidik-Jonkman standard error of the centre: se^2 = sum w (x - centre)^2 / ((K - 1)
// sum w); absent below 2 pairs. Its interval: centre -/+ t_{K-1, 1 - one_sided_alpha} se, for any K >= 2.
std::optional<double> hksj_standard_error(const WeightedPairs& pairs);
std::optional<WeightedInterval> hksj_interval(const WeightedPairs& pairs, double one_sided_alpha);

}  // namespace gbx

#pragma once

#include <cstddef>
#include <optional>
#include <vector>

// Wilcoxon's signed-rank test and the Hodges-Lehmann one-sample estimate with its exact interval, for
// the per-pair log ratios of a paired comparison (stats/paired.h). Why not only Student's t: on the
// small VMs a few processes run 30-100% slower for all their blocks (3 of 19 in one recorded triad row).
// One such pair moves the mean and inflates the sd of the x_k, so the t interval widens to undecided;
// the signed ranks bound an outlier's weight by its rank. Both rest on the symmetry of the x_k about
// the true log ratio, which the design gives: the two processes of a pair are started in a random
// order and run their blocks in a random order, so base and candidate are exchangeable under no change.
// Under normal x_k the signed-rank interval is about 95% as efficient as t (Lehmann, Nonparametrics,
// 1975, ch. 4); under heavy tails it is far more.

namespace gbx {

// The exact null distribution of T+ = sum of the ranks 1..K carrying a positive sign, each sign a fair
// coin: P(T+ <= t) for t = 0 .. K(K+1)/2. Computed by the usual recursion on K in doubles (exact to
// rounding for K <= 60, where the counts stay below 2^53 x 2^7). K = 0 gives {1}.
std::vector<double> signed_rank_cdf(std::size_t k);

// The two-sided exact p-value of "symmetric about 0": the statistic is sum sign(x_k) r_k with r_k the
// mid-ranks of |x_k| among all K values (zeros ranked too and carrying no sign, Pratt's treatment), and
// its permutation distribution over the 2^m sign flips of the m non-zero values, enumerated on doubled
// ranks (integers). p = P(|S| >= |s_observed|). 1 when every value is 0. Absent for no values, a
// non-finite value, or K > kSignedRankMaxPairs.
inline constexpr std::size_t kSignedRankMaxPairs = 60;
std::optional<double> signed_rank_p_value(const std::vector<double>& values);

// The Hodges-Lehmann estimate (the median of the K(K+1)/2 Walsh averages (x_i + x_j) / 2, i <= j) and
// the distribution-free interval [W_(c), W_(N+1-c)] with c the largest integer such that
// P(T+ <= c - 1) <= one_sided_alpha: each bound misses the true centre with probability at most
// one_sided_alpha. When even c = 1 is too many (2^-K > one_sided_alpha: too few pairs for that level)
// the bounds are -/+ infinity and `bounded` is false. `achieved_one_sided` is P(T+ <= c - 1), the
// level actually reached (the distribution is discrete).
struct WalshInterval {
  double estimate = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  bool bounded = false;
  double achieved_one_sided = 0.0;
};
// Absent for no values, a non-finite value, K > kSignedRankMaxPairs or one_sided_alpha outside (0, 0.5).
std::optional<WalshInterval> walsh_interval(const std::vector<double>& values, double one_sided_alpha);

}  // namespace gbx

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "stats/statistics.h"

// Bootstrap confidence intervals for the mean and the median of one measurement's samples.
//
// The bootstrap distribution (the law of the statistic on a resample of n draws with replacement)
// is obtained in one of three ways, recorded in BootstrapResult::distribution:
//   - exact (the median, by default): a resampled order statistic follows a binomial law, so the
//     median's bootstrap distribution is computed in closed form, with no Monte-Carlo error; see
//     exact_median_distribution. Intervals are then what scipy.stats.bootstrap gives as its number of
//     resamples grows without bound.
//   - saddlepoint (the mean, by default, when the checks of saddlepoint_mean_check pass): the mean has
//     no tractable exact law, but the resampled sum is a sum of n independent draws whose cumulant
//     generating function is known, and the Lugannani-Rice saddlepoint approximation of its CDF
//     (Davison & Hinkley 1988, "Saddlepoint approximations in resampling methods") is accurate to a
//     fraction of the Monte-Carlo error of 10,000 resamples once n >= kSaddlepointMinSamples and the
//     distribution is smooth (no lattice, no lumps from far outliers).
//   - monte_carlo: `resamples` resamples (BootstrapOptions::analytic = false, or the mean when the
//     saddlepoint checks fail). Resampling is deterministic: resamples are drawn in fixed chunks of
//     kBootstrapChunk, chunk c from its own std::mt19937_64 seeded with mix(mix(seed) ^ c), mix being
//     one SplitMix64 step, and indices come from the engine's raw output: each 64-bit output gives two
//     32-bit draws (low half first), each mapped to [0, n) by Lemire's unbiased multiply-shift, not by
//     std::uniform_int_distribution, whose algorithm the standard leaves to the library. So the result
//     depends on the seed and the data only: not on the thread count, on timing, or on the standard
//     library.
// BCa and the percentile method then work the same way on any of the three (see bootstrap_interval).

namespace gbx {

enum class BootstrapStatistic { mean, median };
enum class BootstrapMethod { percentile, bca };
enum class BootstrapDistribution { monte_carlo, exact, saddlepoint };

inline constexpr std::size_t kBootstrapChunk = 64;

// Below this many samples the mean's bootstrap distribution is sampled: Monte Carlo is cheap there, and
// the saddlepoint's error, O(1/n), reaches 1 to 2% of the interval's width at n = 30 (bootstrap_saddlepoint.cc).
inline constexpr std::size_t kSaddlepointMinSamples = 100;
// The largest saddlepoint_mean_lumpiness for which the saddlepoint is used (see bootstrap_saddlepoint.cc).
inline constexpr double kSaddlepointLumpRatio = 1.5;

struct BootstrapOptions {
  double level = 0.95;
  std::size_t resamples = 10000;
  std::uint64_t seed = 0x5eed5eed5eed5eedULL;
  BootstrapMethod method = BootstrapMethod::bca;
  unsigned threads = 0;  // 0: std::thread::hardware_concurrency(); the result is the same either way
  // true: the median's bootstrap distribution is exact and the mean's a saddlepoint approximation
  // where saddlepoint_mean_check allows it, Monte Carlo otherwise. false: Monte Carlo always.
  bool analytic = true;
};

struct BootstrapResult {
  // Absent only when nothing can be said: no samples, a non-finite sample, a level outside (0, 1) or
  // no resamples. Degenerate cases still give an interval (see `degenerate`).
  std::optional<detail::Interval> interval;
  double estimate = 0.0;                          // the statistic on the samples themselves
  BootstrapMethod method = BootstrapMethod::bca;  // the method that gave `interval`
  BootstrapDistribution distribution = BootstrapDistribution::monte_carlo;
  // The Monte-Carlo resamples drawn and their seed; both 0 when nothing was drawn: an exact or
  // saddlepoint distribution, or degenerate data (constant, n = 1) that need no resampling.
  std::uint64_t seed = 0;
  std::size_t resamples = 0;
  // BCa's ingredients, when BCa was attempted and they exist: z0 = Phi^-1(P(theta* < estimate) +
  // P(theta* = estimate) / 2) (scipy's mid-rank fraction), a from the jackknife, and the adjusted
  // percentiles.
  std::optional<double> bias_correction;
  std::optional<double> acceleration;
  double lower_percentile = 0.0;  // the fractions of the bootstrap distribution taken as bounds
  double upper_percentile = 0.0;
  // True when the interval is not the one asked for: constant data or n = 1 ([x, x]), n = 2 (three
  // possible resampled values: percentile), a bootstrap distribution with no spread ([v, v]), z0
  // infinite or 1 - a (z0 + z) <= 0 (percentile), jackknife values with no spread (a taken as 0).
  bool degenerate = false;
  std::string reason;  // why, when degenerate or when there is no interval
};

// The statistic on each of `resamples` resamples, in resample order. Empty for empty input.
std::vector<double> bootstrap_distribution(const std::vector<double>& samples, BootstrapStatistic statistic,
                                           std::size_t resamples, std::uint64_t seed, unsigned threads = 0);

// One value of a discrete distribution and its probability.
struct BootstrapAtom {
  double value = 0.0;
  double probability = 0.0;
};

// The exact bootstrap distribution of the type 7 median: atoms in increasing value, equal values
// merged. Atoms below 1e-17 are left out (at most about 1e-14 in all), so the probabilities sum to 1
// within that. Empty for empty or non-finite input. Cost O(n log n), mostly the sort: only the ranks
// within about 9 standard deviations (sqrt(n) / 2 ranks each) of the middle carry mass.
std::vector<BootstrapAtom> exact_median_distribution(const std::vector<double>& samples);

// Draws a resample's median from the exact law above by inverse CDF, without resampling: what the
// median ratio interval and the Pareto frontier probabilities draw from. Empty for empty or
// non-finite input.
class MedianLawSampler {
 public:
  explicit MedianLawSampler(const std::vector<double>& samples);
  bool empty() const { return values_.empty(); }
  // 53 random bits of one engine output; not to be called when empty().
  double draw(std::mt19937_64& engine) const;

 private:
  std::vector<double> values_;
  std::vector<double> cumulative_;
};

// Why the saddlepoint approximation of the mean's bootstrap distribution would not be accurate enough
// for these samples (fewer than kSaddlepointMinSamples, a lattice or lumps; see bootstrap_saddlepoint.cc), or
// nothing when it is. Also nothing-to-say cases (empty, non-finite, constant) give a reason.
std::optional<std::string> saddlepoint_mean_check(const std::vector<double>& samples);

// The ratio saddlepoint_mean_check holds to kSaddlepointLumpRatio: the largest gap between neighbouring
// values, among those wider than 2% of the resampled sum's standard deviation, over the spread left
// within the clusters that such gaps separate (see bootstrap_saddlepoint.cc). Infinite for a coarse lattice. Absent
// for empty, non-finite or constant input.
std::optional<double> saddlepoint_mean_lumpiness(const std::vector<double>& samples);

// The saddlepoint (Lugannani-Rice) approximation of P(mean of a resample <= x), and its inverse at
// probability p in (0, 1). Absent for empty, non-finite or constant input, or p outside (0, 1); they
// do not apply saddlepoint_mean_check.
std::optional<double> saddlepoint_mean_cdf(const std::vector<double>& samples, double x);
std::optional<double> saddlepoint_mean_quantile(const std::vector<double>& samples, double p);

// Efron's jackknife acceleration sum(d^3) / (6 sum(d^2)^1.5), d_i = mean(theta_(.)) - theta_(i).
// The median's leave-one-out values come from at most three middle order statistics, so this is
// the O(n log n) sort and O(1) more, not n medians in O(n^2). Absent for n < 2, non-finite input, or when the jackknife
// values are all equal.
std::optional<double> jackknife_acceleration(const std::vector<double>& samples, BootstrapStatistic statistic);

// BCa's adjusted percentiles Phi(z0 + (z0 + z) / (1 - a (z0 + z))) for z = Phi^-1((1 -/+ level) / 2),
// as (lower, upper). Absent when 1 - a (z0 + z) <= 0 on either side (the formula breaks down), or for
// non-finite arguments or a level outside (0, 1).
std::optional<std::pair<double, double>> bca_percentiles(double bias_correction, double acceleration, double level);

// Percentile or BCa (Efron & Tibshirani, An Introduction to the Bootstrap, 14.3): for BCa the bounds
// are the quantiles of the bootstrap distribution at Phi(z0 + (z0 + z) / (1 - a (z0 + z))),
// z = Phi^-1((1 -/+ level) / 2), as scipy.stats.bootstrap(method='BCa') computes them. scipy takes
// type 7 quantiles of its resampled values, and so does the Monte-Carlo path here; on the exact
// (discrete) distribution the quantile at p is the smallest atom v with P(theta* <= v) >= p, the limit
// of scipy's as its resamples grow; on the saddlepoint (continuous) one it is the root of F(v) = p.
BootstrapResult bootstrap_interval(const std::vector<double>& samples, BootstrapStatistic statistic,
                                   const BootstrapOptions& options = {});

const char* to_string(BootstrapStatistic statistic);
const char* to_string(BootstrapMethod method);
const char* to_string(BootstrapDistribution distribution);

}  // namespace gbx

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reporters/statistics.h"

// Bootstrap confidence intervals for the mean and the median of one measurement's samples.
//
// Resampling is deterministic: resamples are drawn in fixed chunks of kBootstrapChunk, chunk c from
// its own std::mt19937_64 seeded with mix(mix(seed) ^ c), mix being one SplitMix64 step, and indices
// come from the engine's raw output: each 64-bit output gives two 32-bit draws (low half first), each
// mapped to [0, n) by Lemire's unbiased multiply-shift, not by std::uniform_int_distribution, whose
// algorithm the standard leaves to the library. So the result depends on the seed and the data only: not on the
// thread count, on timing, or on the standard library.

namespace gbx {

enum class BootstrapStatistic { mean, median };
enum class BootstrapMethod { percentile, bca };

inline constexpr std::size_t kBootstrapChunk = 64;

struct BootstrapOptions {
  double level = 0.95;
  std::size_t resamples = 10000;
  std::uint64_t seed = 0x5eed5eed5eed5eedULL;
  BootstrapMethod method = BootstrapMethod::bca;
  unsigned threads = 0;  // 0: std::thread::hardware_concurrency(); the result is the same either way
};

struct BootstrapResult {
  // Absent only when nothing can be said: no samples, a non-finite sample, a level outside (0, 1) or
  // no resamples. Degenerate cases still give an interval (see `degenerate`).
  std::optional<Interval> interval;
  double estimate = 0.0;                          // the statistic on the samples themselves
  BootstrapMethod method = BootstrapMethod::bca;  // the method that gave `interval`
  std::uint64_t seed = 0;
  std::size_t resamples = 0;
  // BCa's ingredients, when BCa was attempted and they exist: z0 = Phi^-1 of the mid-rank fraction
  // of resampled statistics below the estimate, a from the jackknife, and the adjusted percentiles.
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
// are the type 7 quantiles of the bootstrap distribution at Phi(z0 + (z0 + z) / (1 - a (z0 + z))),
// z = Phi^-1((1 -/+ level) / 2), as scipy.stats.bootstrap(method='BCa') computes them.
BootstrapResult bootstrap_interval(const std::vector<double>& samples, BootstrapStatistic statistic,
                                   const BootstrapOptions& options = {});

const char* to_string(BootstrapStatistic statistic);
const char* to_string(BootstrapMethod method);

}  // namespace gbx

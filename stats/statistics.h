#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "stats/estimates.h"

// Descriptive statistics and distribution-free intervals over the raw samples of one measurement.
// Every function is pure. None returns NaN or Inf: what cannot be computed (no samples, a non-finite
// sample, too few samples) is an absent optional.
//
// Quantiles are Hyndman & Fan's type 7 (R's default, numpy's "linear"): for sorted x[0..n-1] and
// 0 <= q <= 1, h = (n - 1) q and Q(q) = x[floor(h)] + (h - floor(h)) (x[floor(h) + 1] - x[floor(h)]).
// So the median of an even count is the mean of the two middle values, and Q(0), Q(1) are min, max.

namespace gbx {

struct Summary {
  std::size_t count = 0;
  double mean = 0.0;
  std::optional<double> stddev;  // with n - 1; absent for a single sample
  std::optional<double> cv;      // stddev / mean; absent with stddev or when the mean is 0
  double min = 0.0;
  double max = 0.0;
  double median = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
};

// Type 7 quantile of already sorted, non-empty, finite data; q is clamped to [0, 1] (NaN to 0).
double quantile_sorted(const std::vector<double>& sorted, double q);

// Type 7 quantile; absent for empty or non-finite input, or q outside [0, 1].
std::optional<double> quantile(std::vector<double> values, double q);
std::optional<double> median(std::vector<double> values);
// The median of sorted, non-empty data: the middle value, or (a + b) / 2 as numpy computes it
// (0.5 a + 0.5 b, which cannot overflow). median() is this after sorting.
double median_of_sorted(const std::vector<double>& sorted);

// The arithmetic mean, summed in order; absent for empty or non-finite input.
std::optional<double> mean(const std::vector<double>& values);
// The sample variance (n - 1), in two passes about the mean: the deviations are small where the values
// are close, so nothing cancels. Absent below 2 values or for non-finite input.
std::optional<double> variance(const std::vector<double>& values);

// Absent for empty or non-finite input.
std::optional<Summary> summarize(const std::vector<double>& samples);

// mean -/+ t(1 - (1 - level) / 2, n - 1) * stddev / sqrt(n). Absent for n < 2, non-finite input, or
// level outside (0, 1). Constant data gives [mean, mean].
std::optional<detail::Interval> student_t_interval(const std::vector<double>& samples, double level = 0.95);

// Equal tails first: the largest l with P(K < l) <= (1 - level) / 2 and the smallest u with
// P(K >= u) <= (1 - level) / 2. When one tail cannot meet its half (as for p99 with a few hundred
// samples), that side goes to the extreme rank and the other side is made as tight as the total
// coverage allows. Absent for n < 2, q outside (0, 1) or level outside (0, 1).
std::optional<detail::OrderStatisticRanks> order_statistic_ranks(std::size_t n, double q, double level = 0.95);

// Distribution-free confidence interval for the q-quantile (order_statistic_ranks on the data).
// With ties the coverage is at least the one reported. Absent as for order_statistic_ranks, and for
// non-finite input.
std::optional<detail::QuantileInterval> quantile_interval(const std::vector<double>& samples, double q,
                                                          double level = 0.95);
// The same on already sorted, finite data.
std::optional<detail::QuantileInterval> quantile_interval_sorted(const std::vector<double>& sorted, double q,
                                                                 double level = 0.95);

// True when every value is finite (neither NaN nor +/-Inf).
bool all_finite(const std::vector<double>& values);

// The relative half-width of the median's distribution-free 95% interval: cheap enough to check
// while sampling (adaptive stopping). Absent while the interval cannot reach 95%.
std::optional<double> median_relative_half_width(const std::vector<double>& samples);

}  // namespace gbx

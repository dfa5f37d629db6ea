#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "stats/statistics.h"

// Outliers and hints that the samples are not independent. Nothing here drops a sample: outliers in
// benchmark timings are usually real (interrupts, preemption, frequency changes), so they are counted,
// located and reported, and the statistics keep them.

namespace gbx {

// Tukey's fences on the type 7 quartiles. The four classes are disjoint: "mild" lies beyond 1.5 IQR
// but within 3 IQR of its quartile, "severe" beyond 3 IQR. Indices are positions in the samples, in
// sampling order.
struct TukeyOutliers {
  double q1 = 0.0;
  double q3 = 0.0;
  double iqr = 0.0;
  double low_severe_fence = 0.0;   // q1 - 3 IQR
  double low_mild_fence = 0.0;     // q1 - 1.5 IQR
  double high_mild_fence = 0.0;    // q3 + 1.5 IQR
  double high_severe_fence = 0.0;  // q3 + 3 IQR
  std::vector<std::size_t> low_severe;
  std::vector<std::size_t> low_mild;
  std::vector<std::size_t> high_mild;
  std::vector<std::size_t> high_severe;
  std::size_t count() const { return low_severe.size() + low_mild.size() + high_mild.size() + high_severe.size(); }
};

// Absent for empty or non-finite input.
std::optional<TukeyOutliers> tukey_outliers(const std::vector<double>& samples);

// Iglewicz & Hoaglin's modified z-score M_i = 0.6745 (x_i - median) / MAD, flagged when |M_i| > 3.5.
// When MAD = 0 (over half the samples equal, as with a coarse timer) M_i would be 0 or infinite, so
// the scale becomes 1.253314 * mean absolute deviation from the median (IBM SPSS's rule; 1.253314 =
// sqrt(pi / 2) makes it estimate sigma as MAD / 0.6745 does). Both zero: constant data, no outliers.
struct ModifiedZOutliers {
  double median = 0.0;
  double mad = 0.0;
  bool mad_was_zero = false;  // the mean-absolute-deviation scale was used
  double max_abs_score = 0.0;
  std::vector<double> scores;         // M_i for every sample, in sampling order
  std::vector<std::size_t> outliers;  // |M_i| > threshold
};

inline constexpr double kModifiedZThreshold = 3.5;

std::optional<ModifiedZOutliers> modified_z_outliers(const std::vector<double>& samples,
                                                     double threshold = kModifiedZThreshold);

// Slow first samples (warm-up that was too short): the median of the first k = max(3, n / 10)
// samples against the median of the rest. Flagged when the head's median is more than 10% above the
// rest's median AND above the rest's 90th percentile. The second condition keeps the false alarm rate
// low for independent samples (for k = 3 the chance that 2 of 3 exceed the rest's p90 is about 3%,
// less for larger k); the first ignores differences too small to matter in tight distributions.
struct SlowStart {
  std::size_t head_count = 0;
  double head_median = 0.0;
  double rest_median = 0.0;
  double rest_p90 = 0.0;
  std::optional<double> relative_excess;  // head_median / rest_median - 1; absent when rest_median is 0
  bool flagged = false;
};

inline constexpr double kSlowStartRelativeExcess = 0.10;

// Absent when n < 2 k (fewer than 6 samples) or non-finite input.
std::optional<SlowStart> slow_start(const std::vector<double>& samples);

// Lag-1 autocorrelation r1 = sum (x_t - mean)(x_{t+1} - mean) / sum (x_t - mean)^2. For independent
// samples r1 is about Normal(-1/n, 1/n), so |r1| > 2 / sqrt(n) flags about 5% of independent
// measurements; that is too noisy across a report of hundreds of benchmarks, so the threshold is
// 3 / sqrt(n) (about 0.3%).
struct Autocorrelation {
  double lag1 = 0.0;
  double threshold = 0.0;
  bool flagged = false;
};

inline constexpr double kAutocorrelationSigmas = 3.0;

// Absent for n < 3, non-finite input, or constant data (r1 undefined).
std::optional<Autocorrelation> lag1_autocorrelation(const std::vector<double>& samples);

// Drift: median of the first half against median of the second (the middle sample of an odd count
// goes to the second half). Flagged when the two halves' order-statistic intervals for the median
// (at `level`) do not overlap. Two intervals of 95% that do not overlap is a conservative test (a false
// alarm well under 1% for independent samples). A half too short to reach `level` (fewer than 6
// samples at 95%) reports [min, max] and its coverage but never flags: it cannot tell.
struct Drift {
  double first_half_median = 0.0;
  double second_half_median = 0.0;
  std::optional<double> relative_change;  // second / first - 1; absent when the first is 0
  detail::Interval first_half_interval;
  detail::Interval second_half_interval;
  bool flagged = false;
};

// Absent for n < 4 or non-finite input.
std::optional<Drift> drift(const std::vector<double>& samples, double level = 0.95);

struct OutlierReport {
  std::optional<TukeyOutliers> tukey;
  std::optional<ModifiedZOutliers> modified_z;
  std::optional<SlowStart> slow_start;
  std::optional<Autocorrelation> autocorrelation;
  std::optional<Drift> drift;
};

OutlierReport analyze_outliers(const std::vector<double>& samples);

}  // namespace gbx

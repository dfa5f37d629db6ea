#include "stats/outliers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gbx {
namespace {

std::vector<double> sorted_copy(std::vector<double>::const_iterator begin, std::vector<double>::const_iterator end) {
  std::vector<double> sorted(begin, end);
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

std::optional<double> relative(double value, double reference) {
  if (reference == 0.0) return std::nullopt;
  return value / reference - 1.0;
}

}  // namespace

std::optional<TukeyOutliers> tukey_outliers(const std::vector<double>& samples) {
  if (samples.empty() || !all_finite(samples)) return std::nullopt;
  const std::vector<double> sorted = sorted_copy(samples.begin(), samples.end());
  TukeyOutliers result;
  result.q1 = quantile_sorted(sorted, 0.25);
  result.q3 = quantile_sorted(sorted, 0.75);
  result.iqr = result.q3 - result.q1;
  result.low_severe_fence = result.q1 - 3.0 * result.iqr;
  result.low_mild_fence = result.q1 - 1.5 * result.iqr;
  result.high_mild_fence = result.q3 + 1.5 * result.iqr;
  result.high_severe_fence = result.q3 + 3.0 * result.iqr;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double value = samples[i];
    if (value < result.low_severe_fence) {
      result.low_severe.push_back(i);
    } else if (value < result.low_mild_fence) {
      result.low_mild.push_back(i);
    } else if (value > result.high_severe_fence) {
      result.high_severe.push_back(i);
    } else if (value > result.high_mild_fence) {
      result.high_mild.push_back(i);
    }
  }
  return result;
}

std::optional<ModifiedZOutliers> modified_z_outliers(const std::vector<double>& samples, double threshold) {
  if (samples.empty() || !all_finite(samples)) return std::nullopt;
  ModifiedZOutliers result;
  result.median = quantile_sorted(sorted_copy(samples.begin(), samples.end()), 0.5);
  std::vector<double> deviations(samples.size());
  std::transform(samples.begin(), samples.end(), deviations.begin(),
                 [&](double value) { return std::abs(value - result.median); });
  const double mean_deviation =
      std::accumulate(deviations.begin(), deviations.end(), 0.0) / static_cast<double>(deviations.size());
  std::sort(deviations.begin(), deviations.end());
  result.mad = quantile_sorted(deviations, 0.5);
  result.mad_was_zero = result.mad == 0.0;
  // Both scales estimate sigma for normal data: MAD / 0.6745 and MeanAD * sqrt(pi / 2).
  const double scale = result.mad_was_zero ? 1.253314 * mean_deviation : result.mad / 0.6745;
  result.scores.assign(samples.size(), 0.0);
  if (scale > 0.0) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const double score = (samples[i] - result.median) / scale;
      result.scores[i] = score;
      result.max_abs_score = std::max(result.max_abs_score, std::abs(score));
      if (std::abs(score) > threshold) result.outliers.push_back(i);
    }
  }
  return result;
}

std::optional<SlowStart> slow_start(const std::vector<double>& samples) {
  const std::size_t head = std::max<std::size_t>(3, samples.size() / 10);
  if (samples.size() < 2 * head || !all_finite(samples)) return std::nullopt;
  const auto split = samples.begin() + static_cast<std::ptrdiff_t>(head);
  const std::vector<double> head_sorted = sorted_copy(samples.begin(), split);
  const std::vector<double> rest_sorted = sorted_copy(split, samples.end());
  SlowStart result;
  result.head_count = head;
  result.head_median = quantile_sorted(head_sorted, 0.5);
  result.rest_median = quantile_sorted(rest_sorted, 0.5);
  result.rest_p90 = quantile_sorted(rest_sorted, 0.9);
  result.relative_excess = relative(result.head_median, result.rest_median);
  result.flagged = result.head_median > result.rest_median * (1.0 + kSlowStartRelativeExcess) &&
                   result.head_median > result.rest_p90;
  return result;
}

std::optional<Autocorrelation> lag1_autocorrelation(const std::vector<double>& samples) {
  if (samples.size() < 3 || !all_finite(samples)) return std::nullopt;
  const auto n = static_cast<double>(samples.size());
  const double mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  double squares = 0.0;
  double products = 0.0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double deviation = samples[i] - mean;
    squares += deviation * deviation;
    if (i + 1 < samples.size()) products += deviation * (samples[i + 1] - mean);
  }
  if (!(squares > 0.0)) return std::nullopt;
  Autocorrelation result;
  result.lag1 = products / squares;
  result.threshold = kAutocorrelationSigmas / std::sqrt(n);
  result.flagged = std::abs(result.lag1) > result.threshold;
  return result;
}

std::optional<Drift> drift(const std::vector<double>& samples, double level) {
  if (samples.size() < 4 || !all_finite(samples)) return std::nullopt;
  const auto split = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
  const std::optional<detail::QuantileInterval> first =
      quantile_interval_sorted(sorted_copy(samples.begin(), split), 0.5, level);
  const std::optional<detail::QuantileInterval> second =
      quantile_interval_sorted(sorted_copy(split, samples.end()), 0.5, level);
  if (!first || !second) return std::nullopt;
  Drift result;
  result.first_half_median = first->estimate;
  result.second_half_median = second->estimate;
  result.relative_change = relative(second->estimate, first->estimate);
  result.first_half_interval = first->interval;
  result.second_half_interval = second->interval;
  result.flagged = first->ranks.reaches_level && second->ranks.reaches_level &&
                   (first->interval.upper < second->interval.lower || second->interval.upper < first->interval.lower);
  return result;
}

OutlierReport analyze_outliers(const std::vector<double>& samples) {
  OutlierReport report;
  report.tukey = tukey_outliers(samples);
  report.modified_z = modified_z_outliers(samples);
  report.slow_start = slow_start(samples);
  report.autocorrelation = lag1_autocorrelation(samples);
  report.drift = drift(samples);
  return report;
}

}  // namespace gbx

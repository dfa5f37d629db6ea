#include "stats/hierarchical.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/students_t.hpp>

#include "stats/bootstrap.h"
#include "stats/statistics.h"

namespace gbx {
namespace {

constexpr double kMadToSigma = 1.4826;  // 1 / Phi^-1(3/4): the MAD of a normal law is 0.6745 sigma

double t_quantile(double degrees_of_freedom, double p) {
  return boost::math::quantile(boost::math::students_t(degrees_of_freedom), p);
}

double cv_of_log_variance(double variance) { return std::sqrt(std::expm1(variance)); }

// The groups with samples, or nothing when a sample is not finite.
std::optional<std::vector<std::vector<double>>> nonempty_groups(const std::vector<std::vector<double>>& groups) {
  std::vector<std::vector<double>> kept;
  for (const auto& group : groups) {
    if (group.empty()) continue;
    if (!all_finite(group)) return std::nullopt;
    kept.push_back(group);
  }
  return kept;
}

// log m_i per group, or nothing when a median is not positive.
std::optional<std::vector<double>> log_medians(const std::vector<std::vector<double>>& groups) {
  std::vector<double> logs;
  for (const auto& group : groups) {
    const std::optional<double> m = median(group);
    if (!m || !(*m > 0.0)) return std::nullopt;
    logs.push_back(std::log(*m));
  }
  return logs;
}

// Pooled robust within-process variance of log samples; absent when no group has two positive samples.
std::optional<double> within_variance_log(const std::vector<std::vector<double>>& groups) {
  double weighted = 0.0;
  double weights = 0.0;
  for (const auto& group : groups) {
    if (group.size() < 2) continue;
    std::vector<double> logs;
    for (double x : group) {
      if (x > 0.0) logs.push_back(std::log(x));
    }
    if (logs.size() < 2) continue;
    const double center = *median(logs);
    for (double& y : logs) y = std::abs(y - center);
    const double sigma = kMadToSigma * *median(logs);
    weighted += static_cast<double>(logs.size() - 1) * sigma * sigma;
    weights += static_cast<double>(logs.size() - 1);
  }
  if (weights == 0.0) return std::nullopt;
  return weighted / weights;
}

// The variance of a median of n samples over that of one sample, for normal noise, as n grows.
double median_variance_factor() { return boost::math::constants::half_pi<double>(); }

double mean_reciprocal_size(const std::vector<std::vector<double>>& groups) {
  double sum = 0.0;
  for (const auto& group : groups) sum += 1.0 / static_cast<double>(group.size());
  return sum / static_cast<double>(groups.size());
}

// Type 7 quantile of unsorted values, by sorting a copy.
double quantile_of(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, q);
}

double uniform01(std::mt19937_64& engine) { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }

// The two-level bootstrap interval of exp(mean log median): processes with replacement, then each
// drawn process's median from its exact bootstrap law.
std::optional<std::pair<double, double>> two_level_bootstrap(const std::vector<std::vector<double>>& groups,
                                                             double level, std::size_t resamples, std::uint64_t seed) {
  std::vector<MedianLawSampler> laws;
  laws.reserve(groups.size());
  for (const auto& group : groups) laws.emplace_back(group);
  std::mt19937_64 engine(seed);
  const std::size_t k = groups.size();
  std::vector<double> statistics(resamples);
  for (double& statistic : statistics) {
    double sum = 0.0;
    for (std::size_t drawn = 0; drawn < k; ++drawn) {
      const auto index = std::min(k - 1, static_cast<std::size_t>(uniform01(engine) * static_cast<double>(k)));
      const double m = laws[index].draw(engine);
      if (!(m > 0.0)) return std::nullopt;
      sum += std::log(m);
    }
    statistic = std::exp(sum / static_cast<double>(k));
  }
  return std::make_pair(quantile_of(statistics, (1.0 - level) / 2.0), quantile_of(statistics, (1.0 + level) / 2.0));
}

double meets(double between, double a, std::size_t k, std::size_t n, double level) {
  const double variance = (between + a / static_cast<double>(n)) / static_cast<double>(k);
  return t_quantile(static_cast<double>(k - 1), (1.0 + level) / 2.0) * std::sqrt(variance);
}

}  // namespace

const char* to_string(HierarchicalMethod method) {
  return method == HierarchicalMethod::log_t ? "log-t-process-medians" : "two-level-bootstrap";
}

void widen_for_resolution(detail::Interval& interval, double resolution_seconds) {
  if (!(resolution_seconds > 0.0)) return;
  interval.lower = std::max(0.0, interval.lower - resolution_seconds / 2.0);
  interval.upper += resolution_seconds / 2.0;
}

std::optional<HierarchicalPlan> plan_replication(double between_variance_log, double within_variance_log,
                                                 double process_seconds, double sample_seconds, double target,
                                                 double level) {
  if (!(target > 0.0 && target < 1.0) || !(level > 0.0 && level < 1.0) || !(between_variance_log >= 0.0) ||
      !(within_variance_log >= 0.0) || !(process_seconds > 0.0) || !(sample_seconds > 0.0)) {
    return std::nullopt;
  }
  const double a = median_variance_factor() * within_variance_log;
  const double goal = std::log1p(target);
  double best_n = static_cast<double>(kPlanMaxSamplesPerProcess);
  if (between_variance_log > 0.0) best_n = std::sqrt(a * process_seconds / (between_variance_log * sample_seconds));
  std::size_t n =
      static_cast<std::size_t>(std::ceil(std::clamp(best_n, 2.0, static_cast<double>(kPlanMaxSamplesPerProcess))));

  HierarchicalPlan plan;
  plan.target_relative_half_width = target;
  plan.level = level;
  plan.process_seconds = process_seconds;
  plan.sample_seconds = sample_seconds;
  std::size_t k = 2;
  while (k < kPlanMaxProcesses && meets(between_variance_log, a, k, n, level) > goal) ++k;
  plan.reachable = meets(between_variance_log, a, k, n, level) <= goal;
  if (plan.reachable) {
    // The fewest samples per process that still meet the target with these K processes.
    std::size_t low = 2;
    std::size_t high = n;
    while (low < high) {
      const std::size_t middle = low + (high - low) / 2;
      if (meets(between_variance_log, a, k, middle, level) <= goal) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    n = low;
  }
  plan.processes = k;
  plan.samples_per_process = n;
  plan.expected_relative_half_width = std::expm1(meets(between_variance_log, a, k, n, level));
  plan.total_seconds = static_cast<double>(k) * (process_seconds + static_cast<double>(n) * sample_seconds);
  return plan;
}

std::optional<HierarchicalEstimate> hierarchical_median(const std::vector<std::vector<double>>& groups,
                                                        double resolution_seconds, double level, std::uint64_t seed) {
  HierarchicalOptions options;
  options.level = level;
  options.seed = seed;
  return hierarchical_median(groups, resolution_seconds, options);
}

std::optional<HierarchicalEstimate> single_process_median(const std::vector<double>& samples,
                                                          const BootstrapResult& median, double resolution_seconds,
                                                          double level) {
  if (!(level > 0.0 && level < 1.0) || !median.interval || samples.empty() || !all_finite(samples)) {
    return std::nullopt;
  }
  const std::vector<std::vector<double>> one{samples};
  if (!log_medians(one)) return std::nullopt;
  HierarchicalEstimate estimate;
  estimate.processes = 1;
  estimate.samples_per_process.push_back(samples.size());
  estimate.level = level;
  estimate.resolution_seconds = std::max(0.0, resolution_seconds);
  const std::optional<double> within = within_variance_log(one);
  if (within) estimate.within_process_cv = cv_of_log_variance(*within);
  estimate.single_process = true;
  estimate.median = median.estimate;
  estimate.method = "single-process-" + std::string(to_string(median.method)) + "-" + to_string(median.distribution);
  detail::Interval interval = *median.interval;
  widen_for_resolution(interval, estimate.resolution_seconds);
  estimate.lower = interval.lower;
  estimate.upper = interval.upper;
  return estimate;
}

std::optional<HierarchicalEstimate> hierarchical_median(const std::vector<std::vector<double>>& groups,
                                                        double resolution_seconds, const HierarchicalOptions& options) {
  const double level = options.level;
  if (!(level > 0.0 && level < 1.0)) return std::nullopt;
  const auto kept = nonempty_groups(groups);
  if (!kept || kept->empty()) return std::nullopt;
  if (kept->size() == 1) {
    BootstrapOptions bootstrap;
    bootstrap.level = level;
    bootstrap.seed = options.seed;
    const std::vector<double>& samples = kept->front();
    return single_process_median(samples, bootstrap_interval(samples, BootstrapStatistic::median, bootstrap),
                                 resolution_seconds, level);
  }
  const auto logs = log_medians(*kept);
  if (!logs) return std::nullopt;

  HierarchicalEstimate estimate;
  estimate.processes = kept->size();
  for (const auto& group : *kept) estimate.samples_per_process.push_back(group.size());
  estimate.level = level;
  estimate.resolution_seconds = std::max(0.0, resolution_seconds);
  const std::optional<double> within = within_variance_log(*kept);
  if (within) estimate.within_process_cv = cv_of_log_variance(*within);

  detail::Interval interval;
  const double k = static_cast<double>(kept->size());
  const double center = *mean(*logs);  // the logs are finite, and there are 2 or more
  const double spread = *variance(*logs);
  estimate.median = std::exp(center);
  if (options.method == HierarchicalMethod::log_t) {
    const double half = t_quantile(k - 1.0, (1.0 + level) / 2.0) * std::sqrt(spread / k);
    interval.lower = std::exp(center - half);
    interval.upper = std::exp(center + half);
  } else {
    const auto bounds = two_level_bootstrap(*kept, level, std::max<std::size_t>(options.resamples, 1), options.seed);
    if (!bounds) return std::nullopt;
    interval.lower = bounds->first;
    interval.upper = bounds->second;
  }
  estimate.method = to_string(options.method);

  const double within_variance = within.value_or(0.0);
  const double explained = median_variance_factor() * within_variance * mean_reciprocal_size(*kept);
  const double between_variance = std::max(0.0, spread - explained);
  estimate.between_process_cv = cv_of_log_variance(between_variance);
  const double sample_seconds = options.sample_seconds > 0.0 ? options.sample_seconds : estimate.median;
  const double process_seconds = options.process_seconds > 0.0
                                     ? options.process_seconds
                                     : kAssumedProcessStartSeconds + kAssumedWarmupSamples * sample_seconds;
  estimate.plan =
      plan_replication(between_variance, within_variance, process_seconds, sample_seconds, options.plan_target, level);
  widen_for_resolution(interval, estimate.resolution_seconds);
  estimate.lower = interval.lower;
  estimate.upper = interval.upper;
  return estimate;
}

std::optional<HierarchicalRatio> hierarchical_ratio(const std::vector<std::vector<double>>& base_groups,
                                                    const std::vector<std::vector<double>>& candidate_groups,
                                                    double base_resolution_seconds, double candidate_resolution_seconds,
                                                    double level, std::uint64_t seed) {
  if (!(level > 0.0 && level < 1.0)) return std::nullopt;
  const auto base = nonempty_groups(base_groups);
  const auto candidate = nonempty_groups(candidate_groups);
  if (!base || !candidate || base->empty() || candidate->empty()) return std::nullopt;

  HierarchicalRatio result;
  double base_median = 0.0;
  double candidate_median = 0.0;
  if (base->size() >= 2 && candidate->size() >= 2) {
    const auto base_logs = log_medians(*base);
    const auto candidate_logs = log_medians(*candidate);
    if (!base_logs || !candidate_logs) return std::nullopt;
    const double kb = static_cast<double>(base_logs->size());
    const double kc = static_cast<double>(candidate_logs->size());
    const double vb = *variance(*base_logs) / kb;
    const double vc = *variance(*candidate_logs) / kc;
    const double difference = *mean(*candidate_logs) - *mean(*base_logs);
    const double se = std::sqrt(vb + vc);
    base_median = std::exp(*mean(*base_logs));
    candidate_median = std::exp(*mean(*candidate_logs));
    RatioInterval& r = result.interval;
    r.ratio = std::exp(difference);
    r.level = level;
    r.method = "welch-t-log-process-medians";
    if (se > 0.0) {
      // Welch-Satterthwaite degrees of freedom; a side with no spread contributes nothing.
      const double denominator = (vb > 0.0 ? vb * vb / (kb - 1.0) : 0.0) + (vc > 0.0 ? vc * vc / (kc - 1.0) : 0.0);
      result.degrees_of_freedom = (vb + vc) * (vb + vc) / denominator;
      const boost::math::students_t law(result.degrees_of_freedom);
      result.p_value =
          std::clamp(2.0 * boost::math::cdf(boost::math::complement(law, std::abs(difference) / se)), 0.0, 1.0);
      const double half = boost::math::quantile(law, (1.0 + level) / 2.0) * se;
      r.lower = std::exp(difference - half);
      r.upper = std::exp(difference + half);
    } else {
      // Every process median equal within each side (quantized): only the tick widening below is left.
      result.degrees_of_freedom = kb + kc - 2.0;
      result.p_value = difference == 0.0 ? 1.0 : 0.0;
      r.lower = r.upper = r.ratio;
    }
    result.test = "welch-t-log-process-medians";
    result.process_level = true;
  } else {
    std::vector<double> base_samples;
    std::vector<double> candidate_samples;
    for (const auto& group : *base) base_samples.insert(base_samples.end(), group.begin(), group.end());
    for (const auto& group : *candidate) candidate_samples.insert(candidate_samples.end(), group.begin(), group.end());
    const auto interval = median_ratio_interval(base_samples, candidate_samples, level, 10000, seed);
    if (!interval) return std::nullopt;
    result.interval = *interval;
    result.p_value = mann_whitney(base_samples, candidate_samples).p_value;
    result.test = "mann-whitney";
    base_median = *median(base_samples);
    candidate_median = *median(candidate_samples);
  }

  const double hb = std::max(0.0, base_resolution_seconds) / 2.0;
  const double hc = std::max(0.0, candidate_resolution_seconds) / 2.0;
  RatioInterval& r = result.interval;
  r.lower = hc >= candidate_median ? 0.0 : r.lower * (1.0 - hc / candidate_median) / (1.0 + hb / base_median);
  r.upper = hb >= base_median ? std::numeric_limits<double>::max()
                              : r.upper * (1.0 + hc / candidate_median) / (1.0 - hb / base_median);
  return result;
}

}  // namespace gbx

#include "stats/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace gbx {
namespace {

bool valid_level(double level) { return level > 0.0 && level < 1.0; }

// Largest k in [lo, hi] with increasing(k) <= limit, or lo - 1 when none (lo >= 1). `increasing` is
// nondecreasing in k; a binary search keeps the cost at O(log n) CDF evaluations even for n = 1e5.
template <typename Function>
std::size_t last_at_most(std::size_t lo, std::size_t hi, double limit, Function increasing) {
  if (increasing(lo) > limit) return lo - 1;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (increasing(mid) <= limit) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

}  // namespace

bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double value) { return std::isfinite(value); });
}

double quantile_sorted(const std::vector<double>& sorted, double q) {
  const double clamped = q >= 1.0 ? 1.0 : (q > 0.0 ? q : 0.0);  // NaN goes to 0 too
  const double position = static_cast<double>(sorted.size() - 1) * clamped;
  const auto below = static_cast<std::size_t>(position);
  if (below + 1 >= sorted.size()) return sorted.back();
  const double fraction = position - static_cast<double>(below);
  // a + t (b - a) rather than (1 - t) a + t b: exact when a == b, so ties give the tied value.
  return sorted[below] + fraction * (sorted[below + 1] - sorted[below]);
}

std::optional<double> quantile(std::vector<double> values, double q) {
  if (values.empty() || !all_finite(values) || !(q >= 0.0 && q <= 1.0)) return std::nullopt;
  std::sort(values.begin(), values.end());
  return quantile_sorted(values, q);
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty() || !all_finite(values)) return std::nullopt;
  std::sort(values.begin(), values.end());
  return median_of_sorted(values);
}

double median_of_sorted(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * sorted[n / 2 - 1] + 0.5 * sorted[n / 2];
}

std::optional<double> mean(const std::vector<double>& values) {
  if (values.empty() || !all_finite(values)) return std::nullopt;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

std::optional<double> variance(const std::vector<double>& values) {
  if (values.size() < 2) return std::nullopt;
  const std::optional<double> center = mean(values);
  if (!center) return std::nullopt;
  double squares = 0.0;
  for (double value : values) squares += (value - *center) * (value - *center);
  return squares / static_cast<double>(values.size() - 1);
}

std::optional<Summary> summarize(const std::vector<double>& samples) {
  const std::optional<double> center = mean(samples);
  if (!center) return std::nullopt;
  Summary summary;
  summary.count = samples.size();
  summary.mean = *center;
  if (const std::optional<double> spread = variance(samples)) {
    summary.stddev = std::sqrt(*spread);
    if (summary.mean != 0.0) summary.cv = *summary.stddev / summary.mean;
  }
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  summary.min = sorted.front();
  summary.max = sorted.back();
  summary.median = quantile_sorted(sorted, 0.5);
  summary.p90 = quantile_sorted(sorted, 0.9);
  summary.p99 = quantile_sorted(sorted, 0.99);
  return summary;
}

std::optional<detail::Interval> student_t_interval(const std::vector<double>& samples, double level) {
  if (samples.size() < 2 || !valid_level(level)) return std::nullopt;
  const std::optional<Summary> summary = summarize(samples);
  if (!summary) return std::nullopt;
  const auto n = static_cast<double>(summary->count);
  const boost::math::students_t distribution(n - 1.0);
  const double t = boost::math::quantile(boost::math::complement(distribution, (1.0 - level) / 2.0));
  const double half_width = t * *summary->stddev / std::sqrt(n);
  return detail::Interval{summary->mean - half_width, summary->mean + half_width, level, "student t"};
}

std::optional<detail::OrderStatisticRanks> order_statistic_ranks(std::size_t n, double q, double level) {
  if (n < 2 || !(q > 0.0 && q < 1.0) || !valid_level(level)) return std::nullopt;
  const boost::math::binomial_distribution<double> binomial(static_cast<double>(n), q);
  // below(l) = P(K < l) misses low (x_(l) above the quantile); above(u) = P(K >= u) misses high.
  const auto below = [&](std::size_t l) { return boost::math::cdf(binomial, static_cast<double>(l - 1)); };
  const auto above = [&](std::size_t u) {
    return boost::math::cdf(boost::math::complement(binomial, static_cast<double>(u - 1)));
  };
  // Smallest u in [1, n] with above(u) <= limit (above is nonincreasing), or n + 1 when none.
  const auto smallest_upper = [&](double limit) {
    std::size_t lo = 1;
    std::size_t hi = n + 1;  // above(n + 1) = 0 <= limit, a sentinel never evaluated
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (above(mid) <= limit) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  };

  const double tail = (1.0 - level) / 2.0;
  std::size_t lower = last_at_most(1, n, tail, below);  // 0 when even l = 1 misses low too often
  std::size_t upper = smallest_upper(tail);             // n + 1 when even u = n misses high too often
  if (lower == 0 && upper <= n) {
    lower = 1;
    upper = smallest_upper((1.0 - level) - below(1));
  } else if (lower >= 1 && upper > n) {
    upper = n;
    lower = last_at_most(1, n, (1.0 - level) - above(n), below);
  }
  detail::OrderStatisticRanks ranks;
  ranks.reaches_level = lower >= 1 && upper <= n && lower < upper;
  if (!ranks.reaches_level) {
    lower = 1;
    upper = n;
  }
  ranks.lower = lower;
  ranks.upper = upper;
  ranks.coverage = std::clamp(1.0 - below(lower) - above(upper), 0.0, 1.0);
  return ranks;
}

std::optional<detail::QuantileInterval> quantile_interval_sorted(const std::vector<double>& sorted, double q,
                                                                 double level) {
  const std::optional<detail::OrderStatisticRanks> ranks = order_statistic_ranks(sorted.size(), q, level);
  if (!ranks) return std::nullopt;
  detail::QuantileInterval result;
  result.ranks = *ranks;
  result.estimate = quantile_sorted(sorted, q);
  result.requested_level = level;
  result.interval.lower = sorted[ranks->lower - 1];
  result.interval.upper = sorted[ranks->upper - 1];
  result.interval.level = ranks->coverage;
  result.interval.method = ranks->reaches_level ? "order statistic" : "order statistic: too few samples, [min, max]";
  return result;
}

std::optional<detail::QuantileInterval> quantile_interval(const std::vector<double>& samples, double q, double level) {
  if (!all_finite(samples)) return std::nullopt;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return quantile_interval_sorted(sorted, q, level);
}

std::optional<double> median_relative_half_width(const std::vector<double>& samples) {
  const auto q = quantile_interval(samples, 0.5, 0.95);
  if (!q || !q->ranks.reaches_level || !(q->estimate > 0.0)) return std::nullopt;
  return 0.5 * (q->interval.upper - q->interval.lower) / q->estimate;
}

}  // namespace gbx

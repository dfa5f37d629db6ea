#include "stats/queueing_validity.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gbx {

namespace {

bool in_unit_interval(double x) { return std::isfinite(x) && x > 0.0 && x < 1.0; }

}  // namespace

std::optional<std::int64_t> queries_for_percentile(double percentile, double confidence) {
  if (!in_unit_interval(percentile) || !in_unit_interval(confidence)) return std::nullopt;
  // A hair below the exact ratio so that an integer answer is not pushed up by rounding.
  const double needed = std::log1p(-confidence) / std::log(percentile);
  return static_cast<std::int64_t>(std::ceil(needed * (1.0 - 1e-12)));
}

std::optional<PercentileUpperBound> percentile_upper_bound(const std::vector<double>& sorted, double percentile,
                                                           double confidence) {
  const auto needed = queries_for_percentile(percentile, confidence);
  const std::size_t n = sorted.size();
  if (!needed || static_cast<std::int64_t>(n) < *needed) return std::nullopt;
  // Walk down from j = n, adding P(K = j) to the upper tail P(K >= j), in logs: p^n underflows for
  // the sample sizes of a sweep. The bound's rank is k = j + 1 for the first j whose tail exceeds
  // 1 - c, i.e. the smallest k with P(K >= k) <= 1 - c, F(k - 1) >= c.
  const double nd = static_cast<double>(n);
  const double log_ratio = std::log1p(-percentile) - std::log(percentile);
  const double allowed = std::log1p(-confidence);  // log(1 - c)
  double log_pmf = nd * std::log(percentile);      // log P(K = n)
  double log_tail = -std::numeric_limits<double>::infinity();
  for (std::size_t j = n; j >= 1; --j) {
    const double larger = std::max(log_tail, log_pmf);
    log_tail = larger + std::log1p(std::exp(std::min(log_tail, log_pmf) - larger));
    if (log_tail > allowed) {
      if (j == n) return std::nullopt;  // cannot happen once n >= needed; kept for safety
      return PercentileUpperBound{j + 1, sorted[j]};
    }
    const double jd = static_cast<double>(j);
    log_pmf += std::log(jd / (nd - jd + 1.0)) + log_ratio;  // P(K = j - 1) from P(K = j)
  }
  return std::nullopt;
}

}  // namespace gbx

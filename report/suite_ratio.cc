#include "report/suite_ratio.h"

#include <cmath>

namespace gbx::tools {

namespace {
constexpr double kZ95 = 1.959963984540054;  // the standard normal's 97.5% quantile
}  // namespace

std::optional<SuiteRatio> geometric_mean_ratio(const std::vector<ComparisonRow>& rows) {
  double log_sum = 0.0;
  double variance_sum = 0.0;
  std::size_t n = 0;
  for (const ComparisonRow& row : rows) {
    if (!row.ratio) continue;
    const RatioInterval& r = *row.ratio;
    if (!(r.ratio > 0.0 && r.lower > 0.0 && r.upper >= r.lower) || std::fabs(r.level - 0.95) > 1e-9) continue;
    if (!std::isfinite(r.upper) || !std::isfinite(r.ratio)) continue;
    const double se = (std::log(r.upper) - std::log(r.lower)) / (2.0 * kZ95);
    log_sum += std::log(r.ratio);
    variance_sum += se * se;
    ++n;
  }
  if (n == 0) return std::nullopt;
  const double mean = log_sum / static_cast<double>(n);
  const double se = std::sqrt(variance_sum) / static_cast<double>(n);
  return SuiteRatio{std::exp(mean), std::exp(mean - kZ95 * se), std::exp(mean + kZ95 * se), 0.95, n};
}

}  // namespace gbx::tools

#pragma once

#include <optional>
#include <vector>

#include "analysis/record_comparison.h"

// The suite's geometric-mean ratio, candidate / base, over the benchmarks of a comparison: one number
// for "how much slower or faster is the suite", with an interval from the rows' own intervals.

namespace gbx::tools {

struct SuiteRatio {
  double ratio = 1.0;
  double lower = 1.0;
  double upper = 1.0;
  double level = 0.95;
  std::size_t rows = 0;  // the rows that have a ratio with a 95% interval, all of them weighed equally
};

// exp(mean of log r_i) over the rows with a positive ratio and 95% interval. Each row's interval gives
// its log ratio a standard error, (log upper - log lower) / (2 z), z the normal 97.5% quantile; the rows'
// errors are independent (different benchmarks), so the mean's is sqrt(sum se_i^2) / n and its interval
// exp(mean +/- z se). It is the ratio of this suite as measured, not of benchmarks one might have
// chosen instead. Absent when no row has a ratio.
std::optional<SuiteRatio> geometric_mean_ratio(const std::vector<ComparisonRow>& rows);

}  // namespace gbx::tools

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

// Whether a load level measured enough queries for its tail percentile, after MLPerf LoadGen's
// early-stopping rule (docs/load.md, "Validity"). Pure.
//
// K, the number of the n latencies at or below the true p-quantile x_p, is Binomial(n, p) for
// independent draws of a continuous law. The k-th smallest latency x_(k) lies at or above x_p exactly
// when K <= k - 1, so P(x_(k) >= x_p) = F(k - 1), F the Binomial(n, p) CDF. The one-sided upper
// confidence bound at confidence c is x_(k) with the smallest k such that F(k - 1) >= c: the true
// quantile lies below it with probability at least c. Such a k <= n exists only when
// F(n - 1) = 1 - p^n >= c, i.e. n >= ln(1 - c) / ln p: 459 queries for the p99 at 99%.
// A level meets a latency bound B at confidence c when x_(k) <= B, the same as LoadGen's "early
// stopping satisfied": at most n - k of its queries lie above B.

namespace gbx {

// ceil(ln(1 - confidence) / ln(percentile)); absent for a percentile or confidence outside (0, 1).
std::optional<std::int64_t> queries_for_percentile(double percentile, double confidence);

struct PercentileUpperBound {
  std::size_t rank = 0;  // k, 1-based, in the sorted latencies
  double value = 0.0;    // x_(k)
};

// The upper confidence bound above, from latencies sorted in increasing order; absent when there are
// fewer than queries_for_percentile of them.
std::optional<PercentileUpperBound> percentile_upper_bound(const std::vector<double>& sorted, double percentile,
                                                           double confidence);

}  // namespace gbx

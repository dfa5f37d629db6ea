#pragma once

#include <cstddef>
#include <optional>
#include <string>

// The value types the statistics return, apart from the algorithms that compute them (as Catch2 keeps
// its estimates apart): a measurement's record holds them, so they are public headers while the
// algorithms in statistics.h and queueing.h are not.

namespace gbx::detail {

// A confidence interval. `level` is the coverage the method gives (for order statistics: the exact
// coverage achieved, which may exceed or fall short of what was asked; see QuantileInterval).
struct Interval {
  double lower = 0.0;
  double upper = 0.0;
  double level = 0.0;
  std::string method;
};

// Ranks (1-based) of the order statistics x_(lower) <= x_(upper) that bracket the q-quantile of the
// sampled distribution. K = #{samples <= true quantile} is Binomial(n, q), so for continuous data
// P(x_(l) <= quantile <= x_(u)) = P(l <= K <= u - 1) = F(u - 1) - F(l - 1), F the binomial CDF.
struct OrderStatisticRanks {
  std::size_t lower = 0;
  std::size_t upper = 0;
  double coverage = 0.0;  // F(upper - 1) - F(lower - 1)
  // False when even [x_(1), x_(n)] covers less than asked: the ranks are then 1 and n, with their
  // (insufficient) coverage, rather than no interval, so that a report can show how far short it is.
  bool reaches_level = false;
};

struct QuantileInterval {
  Interval interval;      // interval.level is the coverage achieved; method says when it falls short
  double estimate = 0.0;  // the type 7 sample quantile
  OrderStatisticRanks ranks;
  double requested_level = 0.0;
};

// Little's law, L = lambda W, on measured values: lambda the throughput, W the mean time in the
// system, L the time-average number in it. relative_gap = |lambda W - L| / max(lambda W, L); the law
// holds when the gap is at most the tolerance. A gap beyond it means the window the three were
// measured over is wrong (requests cut at its edges, a warm-up inside it, a clock that disagrees).
struct LittlesLawCheck {
  double throughput = 0.0;
  double mean_time_in_system = 0.0;
  double mean_in_system = 0.0;
  double lambda_w = 0.0;
  double relative_gap = 0.0;
  double tolerance = 0.0;
  bool holds = false;
};

// A rate over a window, with an interval by batch means: the window is cut into `batches` equal
// parts, the rate of each is its event count over its length, and the interval is Student's t over
// those rates. Batch means rather than a Poisson interval because the events of a closed loop or a
// queue are not a Poisson process (a closed loop's completions are more regular than Poisson's).
struct RateEstimate {
  double rate = 0.0;  // all events in the window over its length
  std::size_t events = 0;
  double window_seconds = 0.0;
  std::optional<Interval> interval;  // absent for fewer than 2 batches
};

}  // namespace gbx::detail

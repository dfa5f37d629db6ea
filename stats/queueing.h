#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "stats/estimates.h"
#include "stats/statistics.h"

// Queueing theory the load measurements are checked against (extensions/load, docs/load.md). Pure;
// rates are per second, times in seconds. What cannot be computed (a rate or time that is not finite
// and positive, a negative variance, a utilisation of 1 or more: no steady state) is absent.

namespace gbx {

// An M/G/1 queue's steady state: Poisson arrivals at `arrival_rate`, one server whose service times
// have mean `service_mean` and variance `service_variance`, first come first served.
struct QueueSteadyState {
  double utilization = 0.0;     // rho = lambda E[S]
  double mean_wait = 0.0;       // Wq, in the queue before service (Pollaczek-Khinchine)
  double mean_response = 0.0;   // W = Wq + E[S], arrival to completion
  double mean_in_queue = 0.0;   // Lq = lambda Wq
  double mean_in_system = 0.0;  // L = lambda W
};

// Pollaczek-Khinchine: Wq = lambda E[S^2] / (2 (1 - rho)), E[S^2] = Var[S] + E[S]^2.
std::optional<QueueSteadyState> mg1_steady_state(double arrival_rate, double service_mean, double service_variance);
// Deterministic service (variance 0): Wq = rho E[S] / (2 (1 - rho)).
std::optional<QueueSteadyState> md1_steady_state(double arrival_rate, double service_time);
// Exponential service (variance E[S]^2): Wq = rho E[S] / (1 - rho).
std::optional<QueueSteadyState> mm1_steady_state(double arrival_rate, double service_mean);

// M/D/1 with service time D: P(Wq <= t) = (1 - rho) sum_{k=0}^{floor(t/D)} (lambda (kD - t))^k / k!
// e^{-lambda (kD - t)} (Erlang, 1909). The terms alternate and grow as e^{lambda t}; long double keeps
// them exact enough up to t of some 40 service times, far past a p99 below rho = 0.95. Absent without a
// steady state, or for t past 60 D.
std::optional<double> md1_wait_cdf(double arrival_rate, double service_time, double t);
// The q-quantile of the response time (wait + D), by bisection on md1_wait_cdf.
std::optional<double> md1_response_quantile(double arrival_rate, double service_time, double q);
// The highest arrival rate whose response-time q-quantile is at most `bound`: theory's answer to the
// peak search (docs/load.md). Absent when even an idle server misses the bound (bound < D).
std::optional<double> md1_peak_rate(double service_time, double q, double bound);

// Little's law on measured values (LittlesLawCheck, stats/estimates.h). Absent for non-finite or
// negative input, or a tolerance outside [0, 1).
std::optional<detail::LittlesLawCheck> littles_law_check(double throughput, double mean_time_in_system,
                                                         double mean_in_system, double tolerance);

// event_times outside [window_start, window_end) are ignored. Absent when the window is empty or
// not finite.
std::optional<detail::RateEstimate> rate_in_window(const std::vector<double>& event_times, double window_start,
                                                   double window_end, std::size_t batches = 10, double level = 0.95);

}  // namespace gbx

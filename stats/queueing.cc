#include "stats/queueing.h"

#include <algorithm>
#include <cmath>

namespace gbx {

namespace {

bool positive(double x) { return std::isfinite(x) && x > 0.0; }

}  // namespace

std::optional<QueueSteadyState> mg1_steady_state(double arrival_rate, double service_mean, double service_variance) {
  if (!positive(arrival_rate) || !positive(service_mean) || !std::isfinite(service_variance) ||
      service_variance < 0.0) {
    return std::nullopt;
  }
  const double rho = arrival_rate * service_mean;
  if (!(rho < 1.0)) return std::nullopt;
  const double second_moment = service_variance + service_mean * service_mean;
  QueueSteadyState s;
  s.utilization = rho;
  s.mean_wait = arrival_rate * second_moment / (2.0 * (1.0 - rho));
  s.mean_response = s.mean_wait + service_mean;
  s.mean_in_queue = arrival_rate * s.mean_wait;
  s.mean_in_system = arrival_rate * s.mean_response;
  return s;
}

std::optional<QueueSteadyState> md1_steady_state(double arrival_rate, double service_time) {
  return mg1_steady_state(arrival_rate, service_time, 0.0);
}

std::optional<QueueSteadyState> mm1_steady_state(double arrival_rate, double service_mean) {
  return mg1_steady_state(arrival_rate, service_mean, service_mean * service_mean);
}

std::optional<double> md1_wait_cdf(double arrival_rate, double service_time, double t) {
  if (!md1_steady_state(arrival_rate, service_time) || !std::isfinite(t)) return std::nullopt;
  if (t < 0.0) return 0.0;
  if (t > 60.0 * service_time) return std::nullopt;
  const long double lambda = arrival_rate;
  const long double d = service_time;
  const long double tt = t;
  const auto terms = static_cast<int>(std::floor(tt / d));
  long double sum = 0.0L;
  for (int k = 0; k <= terms; ++k) {
    const long double x = lambda * (static_cast<long double>(k) * d - tt);  // <= 0
    if (k == 0) {
      sum += std::exp(-x);
    } else if (x < 0.0L) {
      const long double magnitude = std::exp(k * std::log(-x) - std::lgamma(k + 1.0L) - x);
      sum += k % 2 == 1 ? -magnitude : magnitude;
    }
  }
  const long double rho = lambda * d;
  return static_cast<double>(std::min(1.0L, std::max(0.0L, (1.0L - rho) * sum)));
}

std::optional<double> md1_response_quantile(double arrival_rate, double service_time, double q) {
  if (!(q > 0.0 && q < 1.0) || !md1_steady_state(arrival_rate, service_time)) return std::nullopt;
  const auto at = [&](double t) { return md1_wait_cdf(arrival_rate, service_time, t); };
  if (*at(0.0) >= q) return service_time;
  double lo = 0.0;
  double hi = service_time;
  while (true) {
    const auto f = at(hi);
    if (!f) return std::nullopt;
    if (*f >= q) break;
    lo = hi;
    hi *= 2.0;
  }
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (*at(mid) >= q ? hi : lo) = mid;
  }
  return service_time + hi;
}

std::optional<double> md1_peak_rate(double service_time, double q, double bound) {
  if (!positive(service_time) || !positive(bound) || bound < service_time) return std::nullopt;
  double lo = 0.0;
  double hi = 1.0 / service_time;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    const auto p = md1_response_quantile(mid, service_time, q);
    (p && *p <= bound ? lo : hi) = mid;
  }
  return lo;
}

std::optional<detail::LittlesLawCheck> littles_law_check(double throughput, double mean_time_in_system,
                                                         double mean_in_system, double tolerance) {
  const auto usable = [](double x) { return std::isfinite(x) && x >= 0.0; };
  if (!usable(throughput) || !usable(mean_time_in_system) || !usable(mean_in_system) || !usable(tolerance) ||
      tolerance >= 1.0) {
    return std::nullopt;
  }
  detail::LittlesLawCheck c;
  c.throughput = throughput;
  c.mean_time_in_system = mean_time_in_system;
  c.mean_in_system = mean_in_system;
  c.lambda_w = throughput * mean_time_in_system;
  c.tolerance = tolerance;
  const double larger = std::max(c.lambda_w, mean_in_system);
  c.relative_gap = larger > 0.0 ? std::fabs(c.lambda_w - mean_in_system) / larger : 0.0;
  c.holds = c.relative_gap <= tolerance;
  return c;
}

std::optional<detail::RateEstimate> rate_in_window(const std::vector<double>& event_times, double window_start,
                                                   double window_end, std::size_t batches, double level) {
  if (!std::isfinite(window_start) || !std::isfinite(window_end) || !(window_end > window_start)) {
    return std::nullopt;
  }
  detail::RateEstimate r;
  r.window_seconds = window_end - window_start;
  std::vector<double> counts(std::max<std::size_t>(batches, 1), 0.0);
  const double width = r.window_seconds / static_cast<double>(counts.size());
  for (double t : event_times) {
    if (!(t >= window_start && t < window_end)) continue;
    ++r.events;
    const auto batch = std::min(counts.size() - 1, static_cast<std::size_t>((t - window_start) / width));
    counts[batch] += 1.0;
  }
  r.rate = static_cast<double>(r.events) / r.window_seconds;
  if (counts.size() >= 2) {
    for (double& c : counts) c /= width;
    if (auto t = student_t_interval(counts, level)) {
      t->method = "batch_means_student_t";
      r.interval = *t;
    }
  }
  return r;
}

}  // namespace gbx

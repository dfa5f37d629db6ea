#include "extensions/load/load_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include "stats/queueing.h"
#include "stats/queueing_validity.h"
#include "stats/statistics.h"

namespace gbx {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr std::size_t kMinimumOccupancySamples = 30;

double after(double t) { return std::nextafter(t, kInfinity); }

double overlap(double start, double end, double window_start, double window_end) {
  return std::max(0.0, std::min(end, window_end) - std::max(start, window_start));
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", seconds);
  return text;
}

}  // namespace

std::optional<detail::OccupancyEstimate> occupancy_in_window(const std::vector<OccupancySample>& samples,
                                                             double window_start, double window_end) {
  std::vector<double> inside;
  for (const auto& s : samples) {
    if (s.time >= window_start && s.time <= window_end) inside.push_back(s.in_flight);
  }
  if (inside.empty()) return std::nullopt;
  detail::OccupancyEstimate e;
  e.samples = inside.size();
  e.mean = mean(inside).value_or(0.0);
  constexpr std::size_t kBatches = 10;
  if (inside.size() >= 2 * kBatches) {
    std::vector<double> batch_means;
    for (std::size_t b = 0; b < kBatches; ++b) {
      const std::size_t from = b * inside.size() / kBatches;
      const std::size_t to = (b + 1) * inside.size() / kBatches;
      batch_means.push_back(mean(std::vector<double>(inside.begin() + static_cast<std::ptrdiff_t>(from),
                                                     inside.begin() + static_cast<std::ptrdiff_t>(to)))
                                .value_or(0.0));
    }
    double squares = 0.0;
    for (double m : batch_means) squares += (m - e.mean) * (m - e.mean);
    e.standard_error = std::sqrt(squares / static_cast<double>(kBatches - 1) / static_cast<double>(kBatches));
  }
  return e;
}

std::optional<detail::LittlesLawCheck> independent_littles_law(double throughput, double mean_time,
                                                               const std::optional<detail::OccupancyEstimate>& sampled,
                                                               double tolerance) {
  if (!sampled || sampled->samples < kMinimumOccupancySamples) return std::nullopt;
  const double larger = std::max(throughput * mean_time, sampled->mean);
  const double noise = larger > 0.0 ? 3.0 * sampled->standard_error / larger : 0.0;
  return littles_law_check(throughput, mean_time, sampled->mean, std::min(0.99, tolerance + noise));
}

detail::LevelValidity judge_validity(std::vector<double> latencies, double latency_bound, double confidence,
                                     const std::string& not_valid_because) {
  detail::LevelValidity v;
  v.confidence = confidence;
  v.queries = static_cast<std::int64_t>(latencies.size());
  v.queries_needed = queries_for_percentile(v.percentile, confidence).value_or(0);
  v.enough_queries = v.queries_needed > 0 && v.queries >= v.queries_needed;
  std::sort(latencies.begin(), latencies.end());
  if (const auto bound = percentile_upper_bound(latencies, v.percentile, confidence)) {
    v.p99_upper_bound_seconds = bound->value;
  }
  if (!(latency_bound > 0.0)) return v;
  if (!v.enough_queries) {
    v.verdict = "INVALID";
    v.reason = std::to_string(v.queries) + " queries, fewer than the " + std::to_string(v.queries_needed) +
               " the p99 needs at this confidence";
  } else if (*v.p99_upper_bound_seconds > latency_bound) {
    v.verdict = "INVALID";
    v.reason = "p99 upper bound " + seconds_text(*v.p99_upper_bound_seconds) + " above the bound " +
               seconds_text(latency_bound);
  } else if (!not_valid_because.empty()) {
    v.verdict = "INVALID";
    v.reason = not_valid_because;
  } else {
    v.verdict = "VALID";
    v.reason = "p99 upper bound " + seconds_text(*v.p99_upper_bound_seconds) + " within the bound " +
               seconds_text(latency_bound);
  }
  return v;
}

detail::ClosedLoopLevel analyze_closed_loop(const ClosedLoopRun& run, std::int64_t concurrency,
                                            double littles_tolerance, double latency_bound, double confidence) {
  detail::ClosedLoopLevel level;
  level.concurrency = concurrency;
  level.time_bound_reached = run.time_bound_reached;
  const double ws = run.window_start;
  const double we = run.window_end;
  level.window_seconds = std::max(0.0, we - ws);
  if (!(we > ws)) return level;
  // The window holds the completions in (ws, we]: the one that opened it belongs to the warm-up.
  std::vector<double> latencies;
  std::vector<double> ends;
  double in_flight_time = 0.0;
  for (const auto& r : run.requests) {
    in_flight_time += overlap(r.start, r.end, ws, we);
    if (r.end > ws && r.end <= we) {
      latencies.push_back(r.end - r.start);
      ends.push_back(r.end);
    }
  }
  level.requests = static_cast<std::int64_t>(latencies.size());
  level.latency_mean_seconds = mean(latencies).value_or(0.0);
  level.latency_median = quantile_interval(latencies, 0.5);
  level.latency_p99 = quantile_interval(latencies, 0.99);
  level.throughput = rate_in_window(ends, after(ws), after(we));
  level.mean_in_flight = in_flight_time / level.window_seconds;
  if (level.throughput) {
    level.littles_law =
        littles_law_check(level.throughput->rate, level.latency_mean_seconds, level.mean_in_flight, littles_tolerance);
    level.littles_law_violated = level.littles_law && !level.littles_law->holds;
    level.sampled_in_flight = occupancy_in_window(run.occupancy, ws, we);
    level.independent_littles_law = independent_littles_law(level.throughput->rate, level.latency_mean_seconds,
                                                            level.sampled_in_flight, littles_tolerance);
    level.independent_littles_law_violated = level.independent_littles_law && !level.independent_littles_law->holds;
  }
  level.validity = judge_validity(latencies, latency_bound, confidence);
  return level;
}

detail::OpenLoopLevel analyze_open_loop(const OpenLoopRun& run, double offered_rate, std::int64_t servers,
                                        double littles_tolerance, double saturation_tolerance, double latency_bound,
                                        double confidence) {
  detail::OpenLoopLevel level;
  level.offered_rate = offered_rate;
  level.servers = servers;
  level.not_released = run.not_released;
  level.time_bound_reached = run.time_bound_reached;
  const double ws = run.window_start;
  const double we = run.window_end;
  level.window_seconds = std::max(0.0, we - ws);
  if (!(we > ws)) return level;
  std::vector<double> latencies;
  std::vector<double> waits;
  std::vector<double> services;
  std::vector<double> lateness;
  std::vector<double> arrivals;
  std::vector<double> ends;
  double in_system_time = 0.0;
  for (std::size_t i = 0; i < run.requests.size(); ++i) {
    const RequestTimes& r = run.requests[i];
    in_system_time += overlap(r.arrival, r.end, ws, we);
    ends.push_back(r.end);
    if (i < run.warmup_requests) continue;
    arrivals.push_back(r.arrival);
    latencies.push_back(r.end - r.arrival);
    waits.push_back(r.start - r.arrival);
    services.push_back(r.end - r.start);
    lateness.push_back(r.release - r.arrival);
  }
  level.requests = static_cast<std::int64_t>(latencies.size());
  level.latency_mean_seconds = mean(latencies).value_or(0.0);
  level.wait_mean_seconds = mean(waits).value_or(0.0);
  level.latency_median = quantile_interval(latencies, 0.5);
  level.latency_p90 = quantile_interval(latencies, 0.9);
  level.latency_p99 = quantile_interval(latencies, 0.99);
  const auto arrived = rate_in_window(arrivals, ws, after(we));
  level.arrival_rate = arrived ? arrived->rate : 0.0;
  level.achieved = rate_in_window(ends, ws, after(we));
  level.mean_in_system = in_system_time / level.window_seconds;
  level.saturated = level.achieved && level.achieved->rate < (1.0 - saturation_tolerance) * level.arrival_rate;
  level.littles_law =
      littles_law_check(level.arrival_rate, level.latency_mean_seconds, level.mean_in_system, littles_tolerance);
  // Above saturation the queue grows through the window: there is no steady state for the law to hold in.
  level.littles_law_violated = level.littles_law && !level.littles_law->holds && !level.saturated;
  // The servers as a system of their own: busy workers = arrival rate x service time.
  level.service_mean_seconds = mean(services).value_or(0.0);
  level.sampled_in_service = occupancy_in_window(run.occupancy, ws, we);
  level.independent_littles_law = independent_littles_law(level.arrival_rate, level.service_mean_seconds,
                                                          level.sampled_in_service, littles_tolerance);
  level.independent_littles_law_violated =
      level.independent_littles_law && !level.independent_littles_law->holds && !level.saturated;
  if (!lateness.empty()) {
    level.lateness.median_seconds = *median(lateness);
    level.lateness.p99_seconds = *quantile(lateness, 0.99);
    level.lateness.max_seconds = *std::max_element(lateness.begin(), lateness.end());
    const double median_latency = level.latency_median ? level.latency_median->estimate : 0.0;
    level.lateness.late = level.lateness.p99_seconds > 0.1 * median_latency;
  }
  level.validity = judge_validity(latencies, latency_bound, confidence,
                                  level.saturated ? "saturated: the queue grew through the window" : "");
  return level;
}

void summarize_sweep(detail::LoadResult& result) {
  result.saturation_offered_rate.reset();
  result.max_achieved_rate.reset();
  result.throughput_at_bound.reset();
  result.throughput_at_bound_source.clear();
  const auto raise = [](std::optional<double>& best, double value) {
    if (!best || value > *best) best = value;
  };
  for (const auto& level : result.open_loop) {
    if (level.saturated && (!result.saturation_offered_rate || level.offered_rate < *result.saturation_offered_rate)) {
      result.saturation_offered_rate = level.offered_rate;
    }
    if (level.achieved) raise(result.max_achieved_rate, level.achieved->rate);
  }
  for (const auto& level : result.closed_loop) {
    if (level.throughput) raise(result.max_achieved_rate, level.throughput->rate);
  }
  if (!(result.latency_bound_seconds > 0.0)) return;
  const double bound = result.latency_bound_seconds;
  if (!result.open_loop.empty()) {
    for (const auto& level : result.open_loop) {
      if (!level.saturated && level.achieved && level.latency_p99 && level.latency_p99->estimate <= bound) {
        raise(result.throughput_at_bound, level.achieved->rate);
      }
    }
    if (result.throughput_at_bound) result.throughput_at_bound_source = "open_loop";
    return;
  }
  for (const auto& level : result.closed_loop) {
    if (level.throughput && level.latency_p99 && level.latency_p99->estimate <= bound) {
      raise(result.throughput_at_bound, level.throughput->rate);
    }
  }
  if (result.throughput_at_bound) result.throughput_at_bound_source = "closed_loop";
}

}  // namespace gbx

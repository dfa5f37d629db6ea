#include "extensions/load/load_engine.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <random>

#include "stats/queueing.h"
#include "stats/statistics.h"

namespace gbx {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double after(double t) { return std::nextafter(t, kInfinity); }

double overlap(double start, double end, double window_start, double window_end) {
  return std::max(0.0, std::min(end, window_end) - std::max(start, window_start));
}

double mean_of(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) sum += v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

}  // namespace

std::vector<double> arrival_offsets(ArrivalProcess process, double rate, std::size_t count, std::uint64_t seed) {
  std::vector<double> offsets(count, 0.0);
  if (!(std::isfinite(rate) && rate > 0.0)) return {};
  std::mt19937_64 engine(seed);
  double t = 0.0;
  for (std::size_t i = 1; i < count; ++i) {
    if (process == ArrivalProcess::constant) {
      t = static_cast<double>(i) / rate;
    } else {
      const double u = static_cast<double>(engine() >> 11) * 0x1.0p-53;  // [0, 1)
      t += -std::log1p(-u) / rate;
    }
    offsets[i] = t;
  }
  return offsets;
}

ClosedLoopRun run_closed_loop(ServicePool& pool, std::size_t concurrency, std::int64_t warmup_requests,
                              std::int64_t requests, double max_seconds) {
  ClosedLoopRun run;
  const std::size_t workers = std::min(concurrency, pool.slots());
  const double begin = pool.now();
  run.window_start = begin;
  run.window_end = begin;
  if (workers == 0) return run;
  bool window_open = warmup_requests <= 0;
  bool issuing = true;
  std::int64_t completed = 0;
  std::int64_t completed_in_window = 0;
  std::size_t in_flight = 0;  // workers still running requests
  // The window opens once every worker has finished a request: a thread that is slow to wake would
  // otherwise leave a short window to the others, and the level would not run at its concurrency.
  std::vector<bool> finished_one(workers, false);
  std::size_t workers_finished = 0;
  const auto stop_issuing = [&] {
    issuing = false;
    pool.set_repeat(false);
  };
  pool.set_repeat(true);
  for (std::size_t slot = 0; slot < workers; ++slot, ++in_flight) pool.start(slot);
  while (in_flight > 0) {
    const auto done = pool.wait_until(kInfinity);
    if (!done) break;
    if (!done->restarted) --in_flight;
    run.requests.push_back({done->start, done->start, done->start, done->end});
    ++completed;
    if (!issuing) continue;
    if (!window_open) {
      if (!finished_one[done->slot]) {
        finished_one[done->slot] = true;
        ++workers_finished;
      }
      if (completed >= warmup_requests && workers_finished == workers) {
        window_open = true;
        run.window_start = done->end;
      }
    } else if (++completed_in_window >= requests) {
      run.window_end = done->end;
      stop_issuing();
      continue;
    }
    if (pool.now() - begin >= max_seconds) {
      run.time_bound_reached = true;
      run.window_end = done->end;
      if (!window_open) run.window_start = begin;
      stop_issuing();
    }
  }
  pool.set_repeat(false);
  return run;
}

OpenLoopRun run_open_loop(ServicePool& pool, std::size_t servers, const std::vector<double>& offsets,
                          std::size_t warmup_requests, double max_seconds) {
  OpenLoopRun run;
  servers = std::min(servers, pool.slots());
  const double first = pool.now();
  if (servers == 0 || offsets.empty()) return run;
  std::vector<std::size_t> idle;
  for (std::size_t slot = servers; slot-- > 0;) idle.push_back(slot);
  std::vector<std::size_t> serving(servers, 0);
  std::deque<std::size_t> queue;
  std::size_t next = 0;
  bool releasing = true;
  run.requests.reserve(offsets.size());
  while (true) {
    const double now = pool.now();
    if (releasing && now - first >= max_seconds) {
      releasing = false;
      run.time_bound_reached = next < offsets.size();
    }
    while (releasing && next < offsets.size() && first + offsets[next] <= now) {
      run.requests.push_back({first + offsets[next], now, 0.0, 0.0});
      queue.push_back(next++);
    }
    while (!idle.empty() && !queue.empty()) {
      const std::size_t slot = idle.back();
      idle.pop_back();
      serving[slot] = queue.front();
      queue.pop_front();
      pool.start(slot);
    }
    const bool more_arrivals = releasing && next < offsets.size();
    if (!more_arrivals && idle.size() == servers) break;  // nothing queued once every worker is idle
    const auto done = pool.wait_until(more_arrivals ? first + offsets[next] : kInfinity);
    if (!done) continue;
    RequestTimes& request = run.requests[serving[done->slot]];
    request.start = done->start;
    request.end = done->end;
    idle.push_back(done->slot);
  }
  run.not_released = static_cast<std::int64_t>(offsets.size() - next);
  run.warmup_requests = std::min(warmup_requests, next);
  if (next > run.warmup_requests) {
    run.window_start = run.requests[run.warmup_requests].arrival;
    run.window_end = run.requests[next - 1].arrival;
  }
  return run;
}

ClosedLoopLevel analyze_closed_loop(const ClosedLoopRun& run, std::int64_t concurrency, double littles_tolerance) {
  ClosedLoopLevel level;
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
  level.latency_mean_seconds = mean_of(latencies);
  level.latency_median = quantile_interval(latencies, 0.5);
  level.latency_p99 = quantile_interval(latencies, 0.99);
  level.throughput = rate_in_window(ends, after(ws), after(we));
  level.mean_in_flight = in_flight_time / level.window_seconds;
  if (level.throughput) {
    level.littles_law =
        littles_law_check(level.throughput->rate, level.latency_mean_seconds, level.mean_in_flight, littles_tolerance);
    level.littles_law_violated = level.littles_law && !level.littles_law->holds;
  }
  return level;
}

OpenLoopLevel analyze_open_loop(const OpenLoopRun& run, double offered_rate, std::int64_t servers,
                                double littles_tolerance, double saturation_tolerance) {
  OpenLoopLevel level;
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
    lateness.push_back(r.release - r.arrival);
  }
  level.requests = static_cast<std::int64_t>(latencies.size());
  level.latency_mean_seconds = mean_of(latencies);
  level.wait_mean_seconds = mean_of(waits);
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
  if (!lateness.empty()) {
    level.lateness.median_seconds = *median(lateness);
    level.lateness.p99_seconds = *quantile(lateness, 0.99);
    level.lateness.max_seconds = *std::max_element(lateness.begin(), lateness.end());
    const double median_latency = level.latency_median ? level.latency_median->estimate : 0.0;
    level.lateness.late = level.lateness.p99_seconds > 0.1 * median_latency;
  }
  return level;
}

void summarize_sweep(LoadResult& result) {
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

LoadResult run_load_sweep(ServicePool& pool, const LoadPlan& plan, const std::function<bool()>& interrupted) {
  LoadResult result;
  result.arrivals = plan.arrivals;
  result.arrival_seed = plan.arrival_seed;
  result.latency_bound_seconds = plan.latency_bound_seconds;
  result.littles_law_tolerance = plan.littles_law_tolerance;
  result.saturation_tolerance = plan.saturation_tolerance;
  const auto stop = [&] { return interrupted && interrupted(); };
  for (const std::int64_t concurrency : plan.concurrency) {
    if (stop()) return result;
    const auto run = run_closed_loop(pool, static_cast<std::size_t>(concurrency), plan.warmup_requests, plan.requests,
                                     plan.max_seconds_per_level);
    result.closed_loop.push_back(analyze_closed_loop(run, concurrency, plan.littles_law_tolerance));
  }
  if (!plan.offered_load.empty()) {
    for (const auto& level : result.closed_loop) {
      if (level.concurrency == plan.servers && level.throughput && level.throughput->rate > 0.0) {
        result.capacity_rate = level.throughput->rate;
      }
    }
    if (!result.capacity_rate) {
      result.error = "no open loop: the closed loop at concurrency " + std::to_string(plan.servers) +
                     " measured no throughput to scale the offered loads by";
    }
  }
  for (const double load : result.capacity_rate ? plan.offered_load : std::vector<double>{}) {
    if (stop()) break;
    const double rate = load * *result.capacity_rate;
    const auto warmup = static_cast<std::size_t>(std::max<std::int64_t>(plan.warmup_requests, 0));
    const auto offsets =
        arrival_offsets(plan.arrivals, rate, warmup + static_cast<std::size_t>(plan.requests), plan.arrival_seed);
    const auto run =
        run_open_loop(pool, static_cast<std::size_t>(plan.servers), offsets, warmup, plan.max_seconds_per_level);
    OpenLoopLevel level =
        analyze_open_loop(run, rate, plan.servers, plan.littles_law_tolerance, plan.saturation_tolerance);
    level.offered_load = load;
    result.open_loop.push_back(std::move(level));
  }
  summarize_sweep(result);
  return result;
}

}  // namespace gbx

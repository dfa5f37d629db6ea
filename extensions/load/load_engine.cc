#include "extensions/load/load_engine.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <deque>
#include <limits>
#include <random>

#include "extensions/load/load_analysis.h"
#include "extensions/load/peak_search.h"

namespace gbx {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

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
  const std::size_t warmup = static_cast<std::size_t>(std::max<std::int64_t>(warmup_requests, 0));
  const std::size_t measured = static_cast<std::size_t>(std::max<std::int64_t>(requests, 0));
  ClosedLoopTrace trace = pool.run_closed(workers, warmup + measured, max_seconds);
  std::sort(trace.completions.begin(), trace.completions.end(),
            [](const Completion& a, const Completion& b) { return a.end < b.end; });
  run.time_bound_reached = trace.time_bound_reached;
  run.occupancy = std::move(trace.occupancy);
  run.requests.reserve(trace.completions.size());
  for (const auto& c : trace.completions) run.requests.push_back({c.start, c.start, c.start, c.end});
  const std::size_t n = run.requests.size();
  if (n == 0) return run;
  // The window opens once every worker has finished a request: a thread that is slow to wake would
  // otherwise leave a short window to the others, and the level would not run at its concurrency.
  std::vector<bool> finished_one(workers, false);
  std::size_t workers_finished = 0;
  std::size_t open = n;  // index of the completion that opens the window
  for (std::size_t i = 0; i < n && open == n; ++i) {
    const std::size_t slot = trace.completions[i].slot;
    if (slot < workers && !finished_one[slot]) {
      finished_one[slot] = true;
      ++workers_finished;
    }
    if (i + 1 >= warmup && workers_finished == workers) open = i;
  }
  if (warmup == 0) {
    run.window_start = begin;
    run.window_end = run.requests[std::min(n, measured) - 1].end;
    if (measured > n) run.time_bound_reached = true;
    return run;
  }
  if (open == n) {  // the bound came before the warm-up ended or before every worker had finished one
    run.time_bound_reached = true;
    run.window_end = run.requests.back().end;
    return run;
  }
  run.window_start = run.requests[open].end;
  if (open + measured < n) {
    run.window_end = run.requests[open + measured].end;
  } else {
    run.time_bound_reached = true;
    run.window_end = run.requests.back().end;
  }
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
  pool.begin_sampling();
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
  run.occupancy = pool.end_sampling();
  run.not_released = static_cast<std::int64_t>(offsets.size() - next);
  run.warmup_requests = std::min(warmup_requests, next);
  if (next > run.warmup_requests) {
    run.window_start = run.requests[run.warmup_requests].arrival;
    run.window_end = run.requests[next - 1].arrival;
  }
  return run;
}

std::optional<double> harness_overhead_per_request(ServicePool& noop, std::size_t concurrency, std::int64_t requests,
                                                   double max_seconds) {
  const ClosedLoopRun run =
      run_closed_loop(noop, concurrency, std::min<std::int64_t>(requests, 100), requests, max_seconds);
  std::size_t inside = 0;
  for (const auto& r : run.requests) inside += r.end > run.window_start && r.end <= run.window_end;
  if (inside == 0 || !(run.window_end > run.window_start)) return std::nullopt;
  const auto workers = static_cast<double>(std::min(concurrency, noop.slots()));
  return workers * (run.window_end - run.window_start) / static_cast<double>(inside);
}

detail::OpenLoopLevel run_open_level(ServicePool& pool, const LoadPlan& plan, double rate, ServicePool* noop) {
  const auto warmup = static_cast<std::size_t>(std::max<std::int64_t>(plan.warmup_requests, 0));
  const auto offsets =
      arrival_offsets(plan.arrivals, rate, warmup + static_cast<std::size_t>(plan.requests), plan.arrival_seed);
  const auto run =
      run_open_loop(pool, static_cast<std::size_t>(plan.servers), offsets, warmup, plan.max_seconds_per_level);
  detail::OpenLoopLevel level =
      analyze_open_loop(run, rate, plan.servers, plan.littles_law_tolerance, plan.saturation_tolerance,
                        plan.latency_bound_seconds, plan.percentile_confidence);
  if (noop != nullptr && level.service_mean_seconds > 0.0) {
    // The hand-over of the open loop (release, wake-up, completion), on a no-op at the same rate: its
    // mean latency from the scheduled arrival, over a few hundred arrivals.
    const auto few_count = static_cast<std::ptrdiff_t>(std::min<std::size_t>(offsets.size(), warmup + 500));
    const std::vector<double> few(offsets.begin(), offsets.begin() + few_count);
    const OpenLoopRun idle =
        run_open_loop(*noop, static_cast<std::size_t>(plan.servers), few, warmup, plan.max_seconds_per_level);
    const detail::OpenLoopLevel idle_level =
        analyze_open_loop(idle, rate, plan.servers, plan.littles_law_tolerance, plan.saturation_tolerance);
    if (idle_level.requests > 0) {
      level.overhead.per_request_seconds = idle_level.latency_mean_seconds;
      level.overhead.fraction_of_service = idle_level.latency_mean_seconds / level.service_mean_seconds;
      level.overhead.exceeded = level.overhead.fraction_of_service > plan.overhead_limit;
    }
  }
  return level;
}

detail::LoadResult run_load_sweep(ServicePool& pool, const LoadPlan& plan, const std::function<bool()>& interrupted,
                                  ServicePool* noop) {
  detail::LoadResult result;
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
    detail::ClosedLoopLevel level = analyze_closed_loop(run, concurrency, plan.littles_law_tolerance,
                                                        plan.latency_bound_seconds, plan.percentile_confidence);
    if (noop != nullptr && level.latency_mean_seconds > 0.0) {
      detail::HarnessOverhead& o = level.overhead;
      o.per_request_seconds = harness_overhead_per_request(*noop, static_cast<std::size_t>(concurrency), plan.requests,
                                                           std::min(plan.max_seconds_per_level, 0.05));
      if (o.per_request_seconds) {
        o.fraction_of_service = *o.per_request_seconds / level.latency_mean_seconds;
        o.exceeded = o.fraction_of_service > plan.overhead_limit;
      }
    }
    result.closed_loop.push_back(std::move(level));
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
    detail::OpenLoopLevel level = run_open_level(pool, plan, load * *result.capacity_rate, noop);
    level.offered_load = load;
    result.open_loop.push_back(std::move(level));
  }
  if (plan.find_peak && plan.latency_bound_seconds > 0.0) {
    if (!result.capacity_rate) {
      for (const auto& level : result.closed_loop) {
        if (level.concurrency == plan.servers && level.throughput) result.capacity_rate = level.throughput->rate;
      }
    }
    if (result.capacity_rate && *result.capacity_rate > 0.0) {
      result.peak_search = find_peak(pool, plan, *result.capacity_rate, stop);
    }
  }
  summarize_sweep(result);
  return result;
}

}  // namespace gbx

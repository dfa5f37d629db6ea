#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "model/load_plan.h"
#include "model/load_result.h"

namespace gbx {

// A request finished on one worker: when the worker started and ended it, on the pool's clock.
struct Completion {
  std::size_t slot = 0;
  double start = 0.0;
  double end = 0.0;
};

// One reading of the in-flight count, taken at a random time by a sampler apart from the completions:
// the requests that had started and not ended then (docs/load.md, "An independent L").
struct OccupancySample {
  double time = 0.0;
  int in_flight = 0;
};

// A closed loop as the pool ran it: every completion (any order) and the sampler's readings.
struct ClosedLoopTrace {
  std::vector<Completion> completions;
  std::vector<OccupancySample> occupancy;
  bool time_bound_reached = false;
};

// The workers the engine hands requests to, and the clock it reads. Real: a thread per worker
// (extensions/load/thread_pool.h). Simulated: a clock that jumps from event to event and service
// times drawn from a known law (tests/load), so that the engine's own code is checked against theory.
class ServicePool {
 public:
  virtual ~ServicePool() = default;
  virtual std::size_t slots() const = 0;
  virtual double now() = 0;
  // Starts one request on an idle worker (the open loop).
  virtual void start(std::size_t slot) = 0;
  // The next completion; nothing once `deadline` (on now()'s clock) comes first. Called with an
  // infinite deadline only while a request is in flight.
  virtual std::optional<Completion> wait_until(double deadline) = 0;
  // A closed loop: workers 0..workers-1 each run request after request, with no hand-over through the
  // engine, until at least `completions` have ended and every worker has finished one, or max_seconds
  // have passed; what is in flight then is finished and returned too. The in-flight count is sampled
  // at random times throughout.
  virtual ClosedLoopTrace run_closed(std::size_t workers, std::size_t completions, double max_seconds) = 0;
  // The same sampling around an open loop, of the workers busy serving.
  virtual void begin_sampling() = 0;
  virtual std::vector<OccupancySample> end_sampling() = 0;
};

// The times of one request. Closed loop: arrival = release = start.
struct RequestTimes {
  double arrival = 0.0;  // scheduled
  double release = 0.0;  // when the engine put it in the queue
  double start = 0.0;
  double end = 0.0;
};

// Seconds after the first arrival at which `count` requests arrive at `rate` per second: constant
// spacing 1 / rate, or Poisson (exponential gaps -ln(1 - u), u from the top 53 bits of
// std::mt19937_64(seed), so the schedule depends on the seed alone).
std::vector<double> arrival_offsets(ArrivalProcess process, double rate, std::size_t count, std::uint64_t seed);

struct ClosedLoopRun {
  std::vector<RequestTimes> requests;  // every request, warm-up included, in completion order
  std::vector<OccupancySample> occupancy;
  double window_start = 0.0;
  double window_end = 0.0;
  bool time_bound_reached = false;
};

// `concurrency` workers (at most pool.slots()) each run request after request (pool.run_closed). The
// window, set afterwards from the completions in end order, opens at the warm_up-th completion, or
// later, once every worker has finished one, and closes at the `requests`-th completion after it, or at
// the last when max_seconds came first; what ended after it is kept (its part inside counts to L).
ClosedLoopRun run_closed_loop(ServicePool& pool, std::size_t concurrency, std::int64_t warmup_requests,
                              std::int64_t requests, double max_seconds);

struct OpenLoopRun {
  std::vector<RequestTimes> requests;      // released requests in arrival order
  std::vector<OccupancySample> occupancy;  // busy workers
  std::size_t warmup_requests = 0;         // the first arrivals, left out of the window
  std::int64_t not_released = 0;
  double window_start = 0.0;  // the first measured arrival
  double window_end = 0.0;    // the last measured arrival
  bool time_bound_reached = false;
};

// Arrivals at now() + offsets[i], each released into a FIFO queue when due and served by the first
// idle one of `servers` workers (at most pool.slots()). After max_seconds no more are released; what
// is queued is still served.
OpenLoopRun run_open_loop(ServicePool& pool, std::size_t servers, const std::vector<double>& offsets,
                          std::size_t warmup_requests, double max_seconds);

// The harness's cost per request at `concurrency`: a closed loop on `noop` (a pool whose service does
// nothing), concurrency x its window over its completions. Absent when it completed none.
std::optional<double> harness_overhead_per_request(ServicePool& noop, std::size_t concurrency, std::int64_t requests,
                                                   double max_seconds);

// One open-loop level at `rate` per second, with the plan's arrivals, requests and bound, analysed;
// with `noop`, its harness overhead (a no-op's latency at the same rate) too.
detail::OpenLoopLevel run_open_level(ServicePool& pool, const LoadPlan& plan, double rate, ServicePool* noop = nullptr);

// A whole sweep on one pool: the closed-loop levels, then the open-loop ones at plan.offered_load x
// the capacity (the closed-loop throughput at plan.servers), then the peak search when asked for.
// `noop`, when given, is the same number of workers serving nothing: each level's harness overhead.
// `interrupted`, when set and true, ends the sweep between levels (the caller throws).
detail::LoadResult run_load_sweep(ServicePool& pool, const LoadPlan& plan,
                                  const std::function<bool()>& interrupted = {}, ServicePool* noop = nullptr);

}  // namespace gbx

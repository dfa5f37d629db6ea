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
  bool restarted = false;  // the worker went straight on to its next request (set_repeat)
};

// The workers the engine hands requests to, and the clock it reads. Real: a thread per worker
// (extensions/load/thread_pool.h). Simulated: a clock that jumps from event to event and service
// times drawn from a known law (tests/load), so that the engine's own code is checked against theory.
class ServicePool {
 public:
  virtual ~ServicePool() = default;
  virtual std::size_t slots() const = 0;
  virtual double now() = 0;
  // Starts one request on an idle worker.
  virtual void start(std::size_t slot) = 0;
  // While on, a worker starts its next request as soon as one ends, without waiting for start(): a
  // closed loop with no hand-over through the engine between two requests.
  virtual void set_repeat(bool repeat) = 0;
  // The next completion; nothing once `deadline` (on now()'s clock) comes first. Called with an
  // infinite deadline only while a request is in flight.
  virtual std::optional<Completion> wait_until(double deadline) = 0;
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
  double window_start = 0.0;
  double window_end = 0.0;
  bool time_bound_reached = false;
};

// `concurrency` workers (at most pool.slots()) each run request after request. The window opens at
// the warm_up-th completion, or later, once every worker has finished one, and closes at the
// `requests`-th completion after it, or when max_seconds have passed; what is in flight then is
// finished, not counted.
ClosedLoopRun run_closed_loop(ServicePool& pool, std::size_t concurrency, std::int64_t warmup_requests,
                              std::int64_t requests, double max_seconds);

struct OpenLoopRun {
  std::vector<RequestTimes> requests;  // released requests in arrival order
  std::size_t warmup_requests = 0;     // the first arrivals, left out of the window
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

ClosedLoopLevel analyze_closed_loop(const ClosedLoopRun& run, std::int64_t concurrency, double littles_tolerance);
OpenLoopLevel analyze_open_loop(const OpenLoopRun& run, double offered_rate, std::int64_t servers,
                                double littles_tolerance, double saturation_tolerance);

// A whole sweep on one pool: the closed-loop levels, then the open-loop ones at plan.offered_load x
// the capacity (the closed-loop throughput at plan.servers). `interrupted`, when set and true,
// ends the sweep between levels (the caller throws).
LoadResult run_load_sweep(ServicePool& pool, const LoadPlan& plan, const std::function<bool()>& interrupted = {});

// The summary fields of a result from its levels: saturation, the most achieved, the throughput at
// the bound.
void summarize_sweep(LoadResult& result);

}  // namespace gbx

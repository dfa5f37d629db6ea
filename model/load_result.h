#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/load_plan.h"
#include "stats/estimates.h"

namespace gbx {

// How late the open loop released its arrivals: actual release time minus scheduled arrival time.
// The generator is not the bottleneck while this stays small against the latencies it measures;
// `late` says it did not (p99 lateness above a tenth of the median latency).
struct GeneratorLateness {
  double median_seconds = 0.0;
  double p99_seconds = 0.0;
  double max_seconds = 0.0;
  bool late = false;
};

// One closed-loop level: `concurrency` workers, each starting its next request when its last ends.
struct ClosedLoopLevel {
  std::int64_t concurrency = 0;
  std::int64_t requests = 0;  // completed inside the window
  double window_seconds = 0.0;
  double latency_mean_seconds = 0.0;
  std::optional<QuantileInterval> latency_median;  // W, start to end of one request
  std::optional<QuantileInterval> latency_p99;
  std::optional<RateEstimate> throughput;  // lambda: completions per second in the window
  double mean_in_flight = 0.0;             // L: time-average of requests in flight in the window
  std::optional<LittlesLawCheck> littles_law;
  bool littles_law_violated = false;
  bool time_bound_reached = false;  // max_seconds_per_level stopped the level early
};

// One open-loop level: arrivals at `offered_rate`, queued, served by `servers` workers.
struct OpenLoopLevel {
  double offered_load = 0.0;             // the fraction of the capacity asked for (0 when given as a rate)
  double offered_rate = 0.0;             // requests per second asked for
  double arrival_rate = 0.0;             // requests per second that arrived in the window (Poisson varies)
  std::optional<RateEstimate> achieved;  // completions per second in the window
  std::int64_t servers = 1;
  std::int64_t requests = 0;      // arrived in the window
  std::int64_t not_released = 0;  // arrivals never released: the time bound came first
  double window_seconds = 0.0;
  double latency_mean_seconds = 0.0;  // scheduled arrival to end: queueing included
  double wait_mean_seconds = 0.0;     // scheduled arrival to start of service
  std::optional<QuantileInterval> latency_median;
  std::optional<QuantileInterval> latency_p90;
  std::optional<QuantileInterval> latency_p99;
  double mean_in_system = 0.0;
  std::optional<LittlesLawCheck> littles_law;
  bool littles_law_violated = false;  // only judged below saturation (no steady state above)
  bool saturated = false;
  GeneratorLateness lateness;
  bool time_bound_reached = false;
};

// A benchmark's load sweep: gbx.load in the record (docs/load.md).
struct LoadResult {
  std::string workers;  // "threads" (CPU) or "streams" (CUDA, one host thread per stream)
  ArrivalProcess arrivals = ArrivalProcess::poisson;
  std::uint64_t arrival_seed = 0;
  double latency_bound_seconds = 0.0;  // 0: none given
  double littles_law_tolerance = 0.0;
  double saturation_tolerance = 0.0;
  std::vector<ClosedLoopLevel> closed_loop;
  std::optional<double> capacity_rate;  // closed-loop throughput at the open loop's server count
  std::vector<OpenLoopLevel> open_loop;
  std::optional<double> saturation_offered_rate;  // the lowest offered rate that saturated
  std::optional<double> max_achieved_rate;        // the most any level completed per second
  // The largest throughput whose p99 latency stays under the bound (open loop, unsaturated levels;
  // the closed loop when there is no open loop), and where it came from.
  std::optional<double> throughput_at_bound;
  std::string throughput_at_bound_source;  // "open_loop" or "closed_loop"
  std::string error;                       // the sweep failed part-way; the levels measured before are kept
};

}  // namespace gbx

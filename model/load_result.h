#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/load_plan.h"
#include "stats/estimates.h"

namespace gbx::detail {

// How late the open loop released its arrivals: actual release time minus scheduled arrival time.
// The generator is not the bottleneck while this stays small against the latencies it measures;
// `late` says it did not (p99 lateness above a tenth of the median latency).
struct GeneratorLateness {
  double median_seconds = 0.0;
  double p99_seconds = 0.0;
  double max_seconds = 0.0;
  bool late = false;
};

// The number in flight read by a sampler at random times, apart from the completions (docs/load.md, "An
// independent L"): the mean of its readings inside the level's window, with a batch-means standard error.
struct OccupancyEstimate {
  std::size_t samples = 0;
  double mean = 0.0;
  double standard_error = 0.0;
};

// Whether a level measured enough queries for its p99 at the stated confidence, and whether its p99
// meets the latency bound at that confidence (stats/queueing_validity.h: MLPerf LoadGen's early stopping).
struct LevelValidity {
  double percentile = 0.99;
  double confidence = 0.99;
  std::int64_t queries_needed = 0;
  std::int64_t queries = 0;
  bool enough_queries = false;
  std::optional<double> p99_upper_bound_seconds;  // the one-sided upper confidence bound
  std::string verdict;                            // "VALID", "INVALID", or empty: no latency bound given
  std::string reason;                             // why INVALID (or, when VALID, what was checked)
};

// What the harness costs a request: a no-op service run the same way, the time per request of one
// worker (the level's service time does not include it, but the worker spends it).
struct HarnessOverhead {
  std::optional<double> per_request_seconds;
  double fraction_of_service = 0.0;  // per_request_seconds over the level's mean service time
  bool exceeded = false;             // fraction above LoadPlan::overhead_limit
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
  std::optional<OccupancyEstimate> sampled_in_flight;
  std::optional<LittlesLawCheck> independent_littles_law;  // lambda W against sampled_in_flight
  bool independent_littles_law_violated = false;
  HarnessOverhead overhead;
  LevelValidity validity;
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
  // The servers alone: sampled busy workers against arrivals x mean service time (start to end).
  std::optional<OccupancyEstimate> sampled_in_service;
  double service_mean_seconds = 0.0;
  std::optional<LittlesLawCheck> independent_littles_law;
  bool independent_littles_law_violated = false;
  HarnessOverhead overhead;  // a no-op's mean latency (scheduled arrival to end) at the same rate
  LevelValidity validity;
  bool saturated = false;
  GeneratorLateness lateness;
  bool time_bound_reached = false;
};

// The bisection over open-loop rates for the highest one whose level is VALID (docs/load.md).
struct PeakSearch {
  std::optional<double> peak_rate;  // the highest rate found VALID (absent: none was)
  double lower_rate = 0.0;          // the interval that holds the true peak: lower_rate VALID (or 0) ...
  double upper_rate = 0.0;          // ... upper_rate INVALID (or the ceiling, capacity, untested)
  bool upper_tested = false;
  std::vector<OpenLoopLevel> steps;  // in the order run
  std::string stopped;               // why the search stopped before its resolution, or empty
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
  std::optional<PeakSearch> peak_search;
  bool requested = true;  // asked for by a --gbx_* load flag; false: the registration's (default suite)
  std::string skipped;    // why a registered sweep did not run here (its numbers would not be valid)
  std::string error;      // the sweep failed part-way; the levels measured before are kept
};

}  // namespace gbx::detail

#pragma once

#include <optional>
#include <vector>

#include "extensions/load/load_engine.h"

namespace gbx {

// The statistics of one level from its run (docs/load.md): W, lambda, L from the request times, and
// L again from the sampler's readings, apart from them; validity against the plan's bound.
detail::ClosedLoopLevel analyze_closed_loop(const ClosedLoopRun& run, std::int64_t concurrency,
                                            double littles_tolerance, double latency_bound = 0.0,
                                            double confidence = 0.99);
detail::OpenLoopLevel analyze_open_loop(const OpenLoopRun& run, double offered_rate, std::int64_t servers,
                                        double littles_tolerance, double saturation_tolerance,
                                        double latency_bound = 0.0, double confidence = 0.99);

// The sampler's readings inside [window_start, window_end]: their mean, and its standard error from
// 10 batch means (neighbouring readings are correlated when they come faster than requests end).
// Absent with no reading inside.
std::optional<detail::OccupancyEstimate> occupancy_in_window(const std::vector<OccupancySample>& samples,
                                                             double window_start, double window_end);

// Little's law against the sampled L, or absent with fewer than 30 readings. The gap allowed is the
// tolerance plus three standard errors of the sampled mean, relative to it.
std::optional<detail::LittlesLawCheck> independent_littles_law(double throughput, double mean_time,
                                                               const std::optional<detail::OccupancyEstimate>& sampled,
                                                               double tolerance);

// The p99's validity from a level's latencies: enough queries at the confidence, and, with a bound,
// VALID when its upper confidence bound meets it (and `not_valid_because`, when set, is empty).
detail::LevelValidity judge_validity(std::vector<double> latencies, double latency_bound, double confidence,
                                     const std::string& not_valid_because = {});

// The summary fields of a result from its levels: saturation, the most achieved, the throughput at
// the bound.
void summarize_sweep(detail::LoadResult& result);

}  // namespace gbx

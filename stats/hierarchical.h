#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/bootstrap.h"
#include "stats/comparison.h"
#include "stats/statistics.h"

// Process-level (hierarchical) statistics: a benchmark's samples come in groups, one per process, and
// the process is the unit of replication (Kalibera & Jones, "Rigorous Benchmarking in Reasonable
// Time", ISMM 2013). On the log scale a sample of process i is y_ij = mu + b_i + e_ij, with b_i the
// process's offset (variance sigma_b^2) and e_ij the noise within it (variance sigma_w^2).
//
// The estimate is exp(mean_i log m_i), m_i the median of process i: the median of the process-level
// law when b is symmetric. The interval is Student's t on the K values log m_i (they are independent
// and identically distributed whatever happens inside a process), mapped back by exp. A two-level
// bootstrap (processes with replacement, then each drawn process's median from its exact bootstrap
// law) is available for comparison; bench/stats_hierarchical.cc measures both and the t interval
// covers closer to its level at K = 3..20 (docs/gating-statistics.md).
//
// Quantized samples: a sample is a count of timer ticks over the batch, so no median is known closer
// than half a tick, resolution = timer_resolution_seconds / batch. Every interval here is widened by
// half a resolution on each side (the ratio's bounds by the matching relative amount), so identical
// quantized samples give [m - tick/2, m + tick/2], never [m, m].

namespace gbx {

enum class HierarchicalMethod { log_t, two_level_bootstrap };
const char* to_string(HierarchicalMethod method);

// Assumed cost of one more process beyond its samples: exec, loading, Google Benchmark's set-up
// (kAssumedProcessStartSeconds) plus kAssumedWarmupSamples samples of warm-up.
inline constexpr double kAssumedProcessStartSeconds = 0.2;
inline constexpr double kAssumedWarmupSamples = 10;
// The plan's bounds on what it proposes.
inline constexpr std::size_t kPlanMaxProcesses = 1000;
inline constexpr std::size_t kPlanMaxSamplesPerProcess = 10000;

// How many processes K and samples per process n reach a relative half-width `target` at `level`:
// the variance of the mean log process median is V(K, n) = (sigma_b^2 + a / n) / K, a = (pi / 2)
// sigma_w^2 (a median of n samples has about pi / 2 times the variance of their mean). The cost
// K (process_seconds + n sample_seconds) at fixed V is least at n* = sqrt(a process_seconds /
// (sigma_b^2 sample_seconds)) (Kalibera & Jones's optimum), clamped to [2, kPlanMaxSamplesPerProcess];
// K is then the least K >= 2 with t(K - 1) sqrt(V(K, n)) <= log(1 + target), and n is lowered to the
// least that still meets the target with that K.
struct HierarchicalPlan {
  double target_relative_half_width = 0.01;
  double level = 0.95;
  std::size_t processes = 0;
  std::size_t samples_per_process = 0;
  double expected_relative_half_width = 0.0;  // exp(t sqrt(V)) - 1 at the plan
  double process_seconds = 0.0;               // the costs assumed
  double sample_seconds = 0.0;
  double total_seconds = 0.0;  // processes (process_seconds + samples_per_process sample_seconds)
  bool reachable = true;       // false: even kPlanMaxProcesses processes fall short (the plan is that cap)
};

// Absent for a target or level outside (0, 1), negative variances or non-positive costs.
std::optional<HierarchicalPlan> plan_replication(double between_variance_log, double within_variance_log,
                                                 double process_seconds, double sample_seconds, double target,
                                                 double level = 0.95);

struct HierarchicalOptions {
  double level = 0.95;
  std::uint64_t seed = 0x5eed;
  HierarchicalMethod method = HierarchicalMethod::log_t;
  std::size_t resamples = 10000;  // two_level_bootstrap only
  double plan_target = 0.01;      // the plan's relative half-width
  // The plan's costs; 0 takes the defaults: sample_seconds the estimate, process_seconds
  // kAssumedProcessStartSeconds + kAssumedWarmupSamples sample_seconds.
  double process_seconds = 0.0;
  double sample_seconds = 0.0;
};

struct HierarchicalEstimate {
  std::size_t processes = 0;  // groups with at least one sample
  std::vector<std::size_t> samples_per_process;
  double median = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  double level = 0.95;
  std::string method;  // "log-t-process-medians", "two-level-bootstrap" or, single process, the bootstrap's
  double resolution_seconds = 0.0;  // the tick the bounds were widened by half of (0: unknown, not widened)
  // sqrt(exp(sigma^2) - 1) of each component. Within: pooled 1.4826 MAD of log samples over processes
  // with >= 2 samples (robust to the odd preempted sample). Between: the variance of the log process
  // medians less what the within noise explains, (pi / 2) sigma_w^2 mean(1 / n_i), floored at 0.
  // Between is absent for one process, within for no process with two samples.
  std::optional<double> between_process_cv;
  std::optional<double> within_process_cv;
  std::optional<HierarchicalPlan> plan;  // absent for one process: the between variance is unknown
  bool single_process = false;           // the interval then sees within-process noise only
};

// Absent when no group has a sample, a sample is not finite, a process median is <= 0, or the level is
// outside (0, 1). Empty groups are ignored. One group: the median and the exact-law BCa bootstrap
// interval of bootstrap_interval (as for a single-process record), widened, single_process true.
std::optional<HierarchicalEstimate> hierarchical_median(const std::vector<std::vector<double>>& groups,
                                                        double resolution_seconds, const HierarchicalOptions& options);
std::optional<HierarchicalEstimate> hierarchical_median(const std::vector<std::vector<double>>& groups,
                                                        double resolution_seconds, double level = 0.95,
                                                        std::uint64_t seed = 0x5eed);

// The one-group estimate from a median interval the caller has already computed (bootstrap_interval
// of `samples`, not yet widened), so that a single-process record does not bootstrap its median twice.
std::optional<HierarchicalEstimate> single_process_median(const std::vector<double>& samples,
                                                          const BootstrapResult& median, double resolution_seconds,
                                                          double level);

// The ratio CAND/BASE of two sides given as process groups, with its test.
// Both sides with >= 2 processes: ratio exp(mean log m_cand - mean log m_base), Welch's t interval and
// two-sided Welch t-test on the log process medians (test "welch-t-log-process-medians"). Otherwise:
// each side's groups pooled, median_ratio_interval and mann_whitney on the samples (the single-process
// comparison, test "mann-whitney"). Either way the bounds are widened for resolution: lower times
// (1 - h_c / m_c) / (1 + h_b / m_b), upper times (1 + h_c / m_c) / (1 - h_b / m_b), h half a tick, m the
// side's median (upper is the largest double when h_b >= m_b). Absent when a side has no positive
// median or the ratio interval is absent.
struct HierarchicalRatio {
  RatioInterval interval;
  double p_value = 1.0;
  std::string test;
  bool process_level = false;
  double degrees_of_freedom = 0.0;  // Welch's, process level only
};
std::optional<HierarchicalRatio> hierarchical_ratio(const std::vector<std::vector<double>>& base_groups,
                                                    const std::vector<std::vector<double>>& candidate_groups,
                                                    double base_resolution_seconds, double candidate_resolution_seconds,
                                                    double level = 0.95, std::uint64_t seed = 0x5eed);

// [lower - resolution / 2, upper + resolution / 2], lower floored at 0. Nothing for resolution <= 0.
void widen_for_resolution(detail::Interval& interval, double resolution_seconds);

}  // namespace gbx

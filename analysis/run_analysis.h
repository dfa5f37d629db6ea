#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "analysis/throughput.h"
#include "model/run_record.h"
#include "stats/bootstrap.h"
#include "stats/hierarchical.h"
#include "stats/outliers.h"
#include "stats/statistics.h"

namespace gbx {

// Something a reader should know about a benchmark's samples before trusting its median.
struct Flag {
  std::string name;  // outliers, slow_start, ... (text/flag_legend.h says what each means)
  std::optional<double> value;
  std::string message;
};

// Everything the reporters say about one repetition's samples.
struct RunAnalysis {
  std::optional<Summary> summary;
  BootstrapResult median_ci;  // BCa by default
  BootstrapResult mean_ci;
  std::optional<detail::Interval> mean_t_ci;
  std::optional<detail::QuantileInterval> median_order_ci;
  std::optional<detail::QuantileInterval> p90_ci;
  std::optional<detail::QuantileInterval> p99_ci;
  OutlierReport outliers;
  Throughput throughput;  // at the median
  std::vector<Flag> flags;
  // The process-level median (gbx.stats.hierarchical): over AnalysisOptions::process_groups when
  // given, else one group marked single_process (reusing median_ci rather than bootstrapping again).
  std::optional<HierarchicalEstimate> hierarchical;
};

struct AnalysisOptions {
  BootstrapOptions bootstrap;
  const Peak* cpu_peak = nullptr;  // for benchmarks of region cpu
  const Peak* gpu_peak = nullptr;  // for device and end_to_end benchmarks
  // The samples per process of a record merged from several processes, and their coarsest per-run
  // tick; the process-level median is then taken over these groups instead of one.
  const std::vector<std::vector<double>>* process_groups = nullptr;
  double process_resolution_seconds = 0.0;
};

RunAnalysis analyze_run(const detail::RunRecord& record, const AnalysisOptions& options = {});

// The entry's `stats`, `outliers` and `flags` objects of the JSON record.
nlohmann::json stats_json(const RunAnalysis& analysis);
nlohmann::json outliers_json(const RunAnalysis& analysis);
nlohmann::json flags_json(const RunAnalysis& analysis);

// A benchmark's gbx.stats.hierarchical object: {processes, samples_per_process, median, lower, upper,
// level, method, resolution_seconds, between_process_cv, within_process_cv, plan, single_process},
// plan = {target_relative_half_width, level, processes, samples_per_process,
// expected_relative_half_width, process_seconds, sample_seconds, total_seconds, reachable}; what is
// unknown is null, and so is the whole object when there is no estimate.
nlohmann::json hierarchical_json(const std::optional<HierarchicalEstimate>& estimate);

}  // namespace gbx

#include "reporters/run_patching.h"

#include <optional>
#include <string>

#include "reporters/run_error.h"
#include "stats/statistics.h"

namespace gbx {

using Run = benchmark::BenchmarkReporter::Run;

namespace {

std::optional<benchmark::TimeUnit> reported_time_unit;

}  // namespace

// Sample standard deviation, 0 for one value; cv = stddev / mean. Needed from 1.8 on, where an
// aggregate row no longer carries the statistics it was computed with; a user-defined statistic
// then keeps Google Benchmark's value.
std::optional<double> standard_statistic(const std::string& name, const std::vector<double>& values) {
  const auto summary = summarize(values);
  if (!summary) return std::nullopt;
  if (name == "mean") return summary->mean;
  if (name == "median") return summary->median;
  if (name == "stddev") return summary->stddev.value_or(0.0);
  if (name == "cv") return summary->cv.value_or(0.0);
  return std::nullopt;
}

// A run's times are kept in seconds; its unit only scales what is printed and written.
void apply_reported_time_unit(Run& run) {
  if (reported_time_unit) run.time_unit = *reported_time_unit;
}

void set_reported_time_unit(std::optional<benchmark::TimeUnit> unit) { reported_time_unit = unit; }

void patch_repetition(Run& run, const detail::RunRecord& record) {
  apply_reported_time_unit(run);
  run.report_label = record.problem;
  if (run_error(run)) return;
  const detail::Measurement& m = record.measurement;
  run.cpu_accumulated_time = m.cpu_seconds_per_run * static_cast<double>(run.iterations);
  run.counters["samples"] = benchmark::Counter(static_cast<double>(m.samples.size()));
  run.counters["batch"] = benchmark::Counter(static_cast<double>(m.batch));
  // Rates at the median, under the names dashboards (Conbench among them) pick up: items are FLOPs.
  const double median = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
  if (median > 0.0 && record.flops_per_run > 0.0) {
    run.counters["items_per_second"] = benchmark::Counter(record.flops_per_run / median);
  }
  if (median > 0.0 && record.bytes_per_run > 0.0) {
    run.counters["bytes_per_second"] = benchmark::Counter(record.bytes_per_run / median);
  }
}

void patch_aggregate(Run& run, const std::vector<detail::RunRecord>& repetitions) {
  apply_reported_time_unit(run);
  if (repetitions.empty()) return;
  run.report_label = repetitions.front().problem;
  if (run_error(run)) return;
  std::vector<double> values;
  for (const auto& record : repetitions) {
    if (record.error.empty()) values.push_back(record.measurement.cpu_seconds_per_run);
  }
  if (values.empty()) return;
  std::optional<double> value;
  bool percentage = run.aggregate_unit == benchmark::kPercentage;
  if (run.statistics != nullptr) {
    for (const auto& statistic : *run.statistics) {
      if (statistic.name_ != run.aggregate_name) continue;
      value = statistic.compute_(values);
      percentage = statistic.unit_ == benchmark::kPercentage;
      break;
    }
  } else {
    value = standard_statistic(run.aggregate_name, values);
  }
  if (!value) return;
  // Google Benchmark divides an aggregate's accumulated time by its iterations (the repetition
  // count) when printing; percentages (the CV) are printed as they are.
  run.cpu_accumulated_time = percentage ? *value : *value * static_cast<double>(run.iterations);
}

void patch_runs(std::vector<Run>& runs, const SampleChannel& channel) {
  for (auto& run : runs) {
    if (run.run_type != Run::RT_Iteration) continue;
    const auto id = record_id_from_label(run.report_label);
    if (!id) continue;
    if (const auto record = channel.find(*id)) patch_repetition(run, *record);
  }
}

}  // namespace gbx

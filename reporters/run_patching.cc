#include "reporters/run_patching.h"

namespace gbx {

using Run = benchmark::BenchmarkReporter::Run;

void patch_repetition(Run& run, const RunRecord& record) {
  run.report_label = record.problem;
  if (run.error_occurred) return;
  const Measurement& m = record.measurement;
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

void patch_aggregate(Run& run, const std::vector<RunRecord>& repetitions) {
  if (repetitions.empty()) return;
  run.report_label = repetitions.front().problem;
  if (run.error_occurred || run.statistics == nullptr) return;
  std::vector<double> values;
  for (const auto& record : repetitions) {
    if (record.error.empty()) values.push_back(record.measurement.cpu_seconds_per_run);
  }
  if (values.empty()) return;
  for (const auto& statistic : *run.statistics) {
    if (statistic.name_ != run.aggregate_name) continue;
    const double value = statistic.compute_(values);
    // Google Benchmark divides an aggregate's accumulated time by its iterations (the repetition
    // count) when printing; percentages (the CV) are printed as they are.
    run.cpu_accumulated_time =
        statistic.unit_ == benchmark::kPercentage ? value : value * static_cast<double>(run.iterations);
    return;
  }
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

#include "reporters/run_patching.h"

namespace gbx {

namespace {

using Run = benchmark::BenchmarkReporter::Run;

// The CPU time per run of each repetition that produced this aggregate. The aggregate's label
// points at the first repetition; the later ones follow it in the channel.
std::vector<double> repetition_cpu_seconds(const RunRecord& first, const Run& aggregate, const SampleChannel& channel) {
  std::vector<double> values;
  for (const auto& record : channel.records()) {
    if (static_cast<std::int64_t>(values.size()) >= aggregate.repetitions) break;
    if (record.id < first.id || record.benchmark != first.benchmark || record.args != first.args) continue;
    if (record.error.empty()) values.push_back(record.measurement.cpu_seconds_per_run);
  }
  return values;
}

void patch_aggregate(Run& run, const RunRecord& first, const SampleChannel& channel) {
  if (run.statistics == nullptr) return;
  const std::vector<double> values = repetition_cpu_seconds(first, run, channel);
  if (values.empty()) return;
  for (const auto& statistic : *run.statistics) {
    if (statistic.name_ != run.aggregate_name) continue;
    const double value = statistic.compute_(values);
    // Percentages (the CV) are stored as they are; times are per-iteration totals.
    run.cpu_accumulated_time =
        statistic.unit_ == benchmark::kPercentage ? value : value * static_cast<double>(run.iterations);
    return;
  }
}

}  // namespace

void patch_runs(std::vector<Run>& runs, const SampleChannel& channel) {
  for (auto& run : runs) {
    const auto id = record_id_from_label(run.report_label);
    if (!id) continue;
    const auto record = channel.find(*id);
    if (!record) continue;
    run.report_label = record->problem;
    if (run.error_occurred) continue;
    if (run.run_type == Run::RT_Aggregate) {
      patch_aggregate(run, *record, channel);
      continue;
    }
    const Measurement& m = record->measurement;
    run.cpu_accumulated_time = m.cpu_seconds_per_run * static_cast<double>(run.iterations);
    run.counters["samples"] = benchmark::Counter(static_cast<double>(m.samples.size()));
    run.counters["batch"] = benchmark::Counter(static_cast<double>(m.batch));
  }
}

}  // namespace gbx

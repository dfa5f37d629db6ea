#include "reporters/plain_samples.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "model/sample_channel.h"
#include "reporters/gbx_reporter.h"
#include "reporters/run_error.h"
#include "reporters/run_patching.h"
#include "stats/statistics.h"

namespace gbx {

using Run = benchmark::BenchmarkReporter::Run;

namespace {

bool not_a_plain_run(const Run& run) {
  return run.run_type == Run::RT_Iteration && record_id_from_label(run.report_label).has_value();
}

// Stopped by SkipWithError, or (from 1.8 on) skipped with a message: no samples to take.
template <class R>
bool stopped(const R& run) {
  if (run_error(run)) return true;
  if constexpr (RunHasSkipMessage<R>::value) {
    using Skipped = std::decay_t<decltype(run.skipped)>;
    return run.skipped != Skipped::NotSkipped;
  } else {
    return false;
  }
}

// The median as the run's analysis takes it (type 7, Summary::median), so that a row's time is the
// record's median to the bit; 0 for no (or a non-finite) value.
double median_or_zero(const std::vector<double>& values) { return quantile(values, 0.5).value_or(0.0); }

double per_iteration(double accumulated, const Run& run) {
  return run.iterations > 0 ? accumulated / static_cast<double>(run.iterations) : 0.0;
}

// The seconds Google Benchmark divided rate counters by: manual or real time when the benchmark
// asked for them, its CPU time otherwise.
double rate_seconds(const Run& run) {
  const bool real = run.run_name.time_type == "manual_time" || run.run_name.time_type == "real_time";
  return per_iteration(real ? run.real_accumulated_time : run.cpu_accumulated_time, run);
}

detail::RunRecord record_of_group(const std::vector<Run>& group, std::int64_t warmup_runs) {
  const Run& first = group.front();
  detail::RunRecord record;
  record.benchmark = first.run_name.function_name;
  record.args = parse_run_args(first.run_name.args).value_or(std::vector<std::int64_t>{});
  record.axes = axes_from_run_args(first.run_name.args);
  record.problem = first.run_name.function_name + (first.run_name.args.empty() ? "" : "/" + first.run_name.args);
  record.region = "end_to_end";
  record.harness = "google_benchmark";
  record.precision.clear();
  const std::string unseen = "a plain Google Benchmark benchmark allocates its own memory, which gbx does not see";
  record.memory.device_bytes_unavailable = unseen;
  record.memory.device_peak_bytes_unavailable = unseen;
  record.memory.host_peak_bytes_unavailable = unseen;
  detail::Measurement& m = record.measurement;
  m.timer = first.run_name.time_type == "manual_time" ? detail::TimerKind::manual : detail::TimerKind::host_wall;
  m.batch = std::max<std::int64_t>(first.iterations, 1);
  m.warmup_runs = warmup_runs;
  std::vector<double> cpu;
  std::vector<double> bytes;
  for (const Run& run : group) {
    m.samples.push_back(per_iteration(run.real_accumulated_time, run));
    cpu.push_back(per_iteration(run.cpu_accumulated_time, run));
    m.sampling_seconds += run.real_accumulated_time;
    const auto rate = run.counters.find("bytes_per_second");
    if (rate != run.counters.end()) bytes.push_back(rate->second.value * rate_seconds(run));
  }
  m.wall_seconds = m.sampling_seconds;
  m.cpu_seconds_per_run = median_or_zero(cpu);
  record.bytes_per_run = median_or_zero(bytes);
  record.stopping.rule = "min_samples";
  record.stopping.reached = true;
  return record;
}

// The group's row: the first repetition, with the medians of the group's times and counters.
Run row_of_group(const std::vector<Run>& group, const detail::RunRecord& record, std::int64_t index,
                 std::int64_t groups) {
  Run row = group.front();
  row.repetitions = groups;
  row.repetition_index = groups > 1 ? index : 0;
  row.real_accumulated_time = median_or_zero(record.measurement.samples) * static_cast<double>(row.iterations);
  row.cpu_accumulated_time = record.measurement.cpu_seconds_per_run * static_cast<double>(row.iterations);
  for (auto& [name, counter] : row.counters) {
    std::vector<double> values;
    for (const Run& run : group) {
      const auto found = run.counters.find(name);
      if (found != run.counters.end()) values.push_back(found->second.value);
    }
    counter.value = median_or_zero(values);
  }
  row.counters["samples"] = benchmark::Counter(static_cast<double>(record.measurement.samples.size()));
  row.counters["batch"] = benchmark::Counter(static_cast<double>(record.measurement.batch));
  apply_reported_time_unit(row);
  return row;
}

// Google Benchmark computed its aggregates over every repetition, warm-up included; gbx's are over
// the groups' medians, as a gbx benchmark's are over its repetitions' medians.
Run aggregate_over_groups(Run aggregate, const std::vector<Run>& rows) {
  std::vector<double> real;
  std::vector<double> cpu;
  for (const Run& row : rows) {
    real.push_back(per_iteration(row.real_accumulated_time, row));
    cpu.push_back(per_iteration(row.cpu_accumulated_time, row));
  }
  aggregate.repetitions = static_cast<std::int64_t>(rows.size());
  aggregate.iterations = static_cast<benchmark::IterationCount>(rows.size());
  const auto value = [&aggregate](const std::vector<double>& values) -> std::optional<double> {
    if (aggregate.statistics != nullptr) {
      for (const auto& statistic : *aggregate.statistics) {
        if (statistic.name_ == aggregate.aggregate_name) return statistic.compute_(values);
      }
    }
    return standard_statistic(aggregate.aggregate_name, values);
  };
  const double scale = aggregate.aggregate_unit == benchmark::kPercentage ? 1.0 : static_cast<double>(rows.size());
  if (const auto v = value(real)) aggregate.real_accumulated_time = *v * scale;
  if (const auto v = value(cpu)) aggregate.cpu_accumulated_time = *v * scale;
  apply_reported_time_unit(aggregate);
  return aggregate;
}

}  // namespace

std::vector<detail::AxisValue> axes_from_run_args(const std::string& args) {
  std::vector<detail::AxisValue> axes;
  if (args.empty()) return axes;
  std::size_t start = 0;
  for (std::size_t position = 0; start <= args.size(); ++position) {
    const auto slash = args.find('/', start);
    const std::string piece = args.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    const auto colon = piece.find(':');
    detail::AxisValue axis;
    axis.name = colon == std::string::npos ? "arg" + std::to_string(position) : piece.substr(0, colon);
    axis.text = colon == std::string::npos ? piece : piece.substr(colon + 1);
    char* end = nullptr;
    const long long value = std::strtoll(axis.text.c_str(), &end, 10);
    if (!axis.text.empty() && end != nullptr && *end == '\0') {
      axis.integer = value;
    } else {
      axis.kind = detail::AxisValue::Kind::text;
    }
    axes.push_back(axis);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return axes;
}

PlainRows collapse_plain_runs(const std::vector<Run>& runs, const PlainLayout& layout) {
  PlainRows out;
  std::vector<Run> repetitions;
  std::vector<Run> aggregates;
  for (const Run& run : runs) {
    if (not_a_plain_run(run)) return out;
    (run.run_type == Run::RT_Iteration ? repetitions : aggregates).push_back(run);
  }
  if (repetitions.empty()) return out;
  out.plain = true;
  const auto failed = std::find_if(repetitions.begin(), repetitions.end(), stopped<Run>);
  if (failed != repetitions.end()) {  // one row for the instance, as a gbx benchmark that failed has
    out.runs.push_back(*failed);
    out.records.emplace_back();
    return out;
  }
  // A benchmark that set its own Repetitions() keeps them all, as one group, without warm-up.
  const auto count = static_cast<std::int64_t>(repetitions.size());
  const bool ours = count == layout.total();
  const std::int64_t warmup = ours ? layout.warmup : 0;
  const std::int64_t groups = ours ? layout.groups : 1;
  const std::int64_t per_group = ours ? layout.samples : count;
  for (std::int64_t g = 0; g < groups; ++g) {
    const auto begin = repetitions.begin() + warmup + g * per_group;
    const std::vector<Run> group(begin, begin + per_group);
    const std::int64_t warmup_runs = g == 0 ? warmup * repetitions.front().iterations : 0;
    detail::RunRecord record = record_of_group(group, warmup_runs);
    out.runs.push_back(row_of_group(group, record, g, groups));
    out.records.emplace_back(std::move(record));
  }
  if (!aggregates.empty()) {
    const PlainRows more = plain_aggregates(aggregates, out);
    out.runs.insert(out.runs.end(), more.runs.begin(), more.runs.end());
    out.records.insert(out.records.end(), more.records.begin(), more.records.end());
  }
  return out;
}

PlainRows plain_aggregates(const std::vector<Run>& aggregates, const PlainRows& rows) {
  PlainRows out;
  out.plain = true;
  std::vector<Run> iterations;
  for (const Run& row : rows.runs) {
    if (row.run_type == Run::RT_Iteration) iterations.push_back(row);
  }
  if (iterations.size() < 2 || rows.records.empty() || !rows.records.front()) return out;
  for (const Run& aggregate : aggregates) {
    if (aggregate.run_type != Run::RT_Aggregate) continue;
    out.runs.push_back(aggregate_over_groups(aggregate, iterations));
    out.records.push_back(rows.records.front());  // names the aggregate's problem, as for gbx rows
  }
  return out;
}

}  // namespace gbx

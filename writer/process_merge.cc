#include "writer/process_merge.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "record/json_number.h"
#include "writer/observations_json.h"

namespace gbx {

namespace {

using Json = nlohmann::json;

double middle(std::vector<double> values) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double seconds_per_unit(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  return 1.0;
}

using RowKey = std::tuple<std::string, std::int64_t, std::string>;  // run_type, repetition_index, aggregate_name

RowKey key_of(const Json& row) {
  return {row.value("run_type", std::string("iteration")), row.value("repetition_index", std::int64_t{0}),
          row.value("aggregate_name", std::string())};
}

bool is_error(const Json& row) { return row.value("error_occurred", false); }

// The fixture records of one repetition across processes, as one: every sample, in process order.
detail::RunRecord merge_records(const std::vector<const detail::RunRecord*>& parts) {
  detail::RunRecord merged = *parts.front();
  detail::Measurement& m = merged.measurement;
  m.samples.clear();
  m.warmup_runs = m.calibration_runs = m.flushes = 0;
  m.warmup.runs = m.warmup.samples = 0;
  m.wall_seconds = m.sampling_seconds = 0.0;
  std::vector<double> cpu;
  std::vector<double> batches;
  std::optional<double> worst_rel_ci;
  std::vector<const detail::Observations*> observed;
  for (const detail::RunRecord* part : parts) {
    observed.push_back(&part->observed);
    const detail::Measurement& p = part->measurement;
    m.warmup.runs += p.warmup.runs;
    m.warmup.samples += p.warmup.samples;
    if (!p.warmup.steady && m.warmup.steady) {
      m.warmup.steady = false;
      m.warmup.stopped = p.warmup.stopped;
    }
    m.samples.insert(m.samples.end(), p.samples.begin(), p.samples.end());
    m.warmup_runs += p.warmup_runs;
    m.calibration_runs += p.calibration_runs;
    m.flushes += p.flushes;
    m.wall_seconds += p.wall_seconds;
    m.sampling_seconds += p.sampling_seconds;
    m.time_bound_reached = m.time_bound_reached || p.time_bound_reached;
    m.sample_bound_reached = m.sample_bound_reached || p.sample_bound_reached;
    m.below_resolution = m.below_resolution || p.below_resolution;
    m.enough_reached = m.enough_reached && p.enough_reached;
    m.timer_resolution_seconds = std::max(m.timer_resolution_seconds, p.timer_resolution_seconds);
    cpu.push_back(p.cpu_seconds_per_run);
    batches.push_back(static_cast<double>(p.batch));
    merged.stopping.reached = merged.stopping.reached && part->stopping.reached;
    if (part->stopping.achieved_rel_ci) {
      worst_rel_ci = std::max(worst_rel_ci.value_or(0.0), *part->stopping.achieved_rel_ci);
    }
    // The worst accuracy and the most memory any process saw.
    if (part->accuracy && merged.accuracy &&
        (!part->accuracy->passed > !merged.accuracy->passed ||
         (part->accuracy->passed == merged.accuracy->passed &&
          part->accuracy->rel_l2_error > merged.accuracy->rel_l2_error))) {
      merged.accuracy = part->accuracy;
    }
    const auto most = [](std::optional<std::int64_t>& into, const std::optional<std::int64_t>& value) {
      if (value && (!into || *value > *into)) into = value;
    };
    most(merged.memory.device_bytes, part->memory.device_bytes);
    most(merged.memory.device_peak_bytes, part->memory.device_peak_bytes);
    most(merged.memory.host_peak_bytes, part->memory.host_peak_bytes);
  }
  m.cpu_seconds_per_run = middle(cpu);
  m.batch = static_cast<std::int64_t>(std::llround(middle(batches)));
  merged.stopping.achieved_rel_ci = worst_rel_ci;
  merged.observed = merge_observations(observed);
  return merged;
}

// Google Benchmark's statistics of the merged repetitions, for its aggregate rows.
std::optional<double> aggregate_of(const std::string& name, const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  double mean = 0.0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double squares = 0.0;
  for (double v : values) squares += (v - mean) * (v - mean);
  const double stddev = values.size() > 1 ? std::sqrt(squares / static_cast<double>(values.size() - 1)) : 0.0;
  if (name == "mean") return mean;
  if (name == "median") return middle(values);
  if (name == "stddev") return stddev;
  if (name == "cv") return mean != 0.0 ? stddev / mean : std::nan("");
  return std::nullopt;
}

Json failed_row(const std::string& name, const Json* like, const std::string& message) {
  Json row = like != nullptr ? *like
                             : Json{{"name", name},
                                    {"family_index", -1},
                                    {"per_family_instance_index", -1},
                                    {"run_name", name},
                                    {"run_type", "iteration"},
                                    {"repetitions", 1},
                                    {"repetition_index", 0},
                                    {"threads", 1},
                                    {"iterations", 0},
                                    {"real_time", 0.0},
                                    {"cpu_time", 0.0},
                                    {"time_unit", "ns"}};
  for (const char* counter : {"samples", "batch", "items_per_second", "bytes_per_second"}) row.erase(counter);
  row["error_occurred"] = true;
  row["error_message"] = message;
  return row;
}

// One selected benchmark's rows across processes.
void merge_benchmark(const std::string& name, const std::vector<ProcessOutcome>& outcomes,
                     const AnalysisOptions& options, std::vector<MergedRow>& out) {
  const ProcessOutcome* model = nullptr;
  std::string failures;
  for (const auto& o : outcomes) {
    if (!o.failure.empty()) failures += (failures.empty() ? "" : "; ") + o.failure;
    if (model == nullptr && o.failure.empty() && !o.rows.empty()) model = &o;
  }
  if (!failures.empty()) {
    const ProcessRow* first = model != nullptr ? &model->rows.front() : nullptr;
    MergedRow row;
    row.benchmark = failed_row(name, first != nullptr ? &first->benchmark : nullptr, failures);
    if (first != nullptr && first->record) {
      row.record = *first->record;
      row.record->error = failures;
      row.record->skipped = false;
      row.record->accuracy.reset();
    }
    row.process_samples = nullptr;
    out.push_back(std::move(row));
    return;
  }
  if (model == nullptr) return;                      // no process reached it (an interrupt)
  std::map<RowKey, std::vector<double>> real_times;  // per merged repetition, for the aggregates
  std::map<std::string, std::vector<double>> iteration_real;
  std::map<std::string, std::vector<double>> iteration_cpu;
  for (const ProcessRow& model_row : model->rows) {
    const RowKey key = key_of(model_row.benchmark);
    std::vector<std::pair<const ProcessOutcome*, const ProcessRow*>> parts;
    for (const auto& o : outcomes) {
      for (const auto& r : o.rows) {
        if (key_of(r.benchmark) == key) parts.emplace_back(&o, &r);
      }
    }
    MergedRow merged;
    merged.process_samples = nullptr;
    if (std::get<0>(key) == "aggregate") {
      merged.benchmark = model_row.benchmark;
      merged.record = model_row.record;
      const std::string& aggregate = std::get<2>(key);
      const auto real = aggregate_of(aggregate, iteration_real[model_row.benchmark.value("run_name", "")]);
      const auto cpu = aggregate_of(aggregate, iteration_cpu[model_row.benchmark.value("run_name", "")]);
      std::vector<double> real_values;
      std::vector<double> cpu_values;
      for (const auto& [o, r] : parts) {
        real_values.push_back(number_or(r->benchmark, "real_time", std::nan("")));
        cpu_values.push_back(number_or(r->benchmark, "cpu_time", std::nan("")));
      }
      merged.benchmark["real_time"] = finite_or_null(real ? *real : middle(real_values));
      merged.benchmark["cpu_time"] = finite_or_null(cpu ? *cpu : middle(cpu_values));
      out.push_back(std::move(merged));
      continue;
    }
    // A repetition: failed or skipped anywhere is failed or skipped here (a failure before a skip).
    const ProcessRow* error = nullptr;
    for (const auto& [o, r] : parts) {
      const bool skipped = r->record && r->record->skipped;
      if (is_error(r->benchmark) && (error == nullptr || !skipped)) error = r;
    }
    if (error != nullptr || !model_row.record) {
      const ProcessRow& chosen = error != nullptr ? *error : model_row;
      merged.benchmark = chosen.benchmark;
      merged.record = chosen.record;
      out.push_back(std::move(merged));
      continue;
    }
    std::vector<const detail::RunRecord*> records;
    std::vector<std::vector<double>> sample_groups;
    double coarsest_tick = 0.0;  // groups may differ in batch: the interval allows for the coarsest
    std::vector<double> real_values;
    std::vector<double> cpu_values;
    Json groups = Json::array();
    for (const auto& [o, r] : parts) {
      if (!r->record) continue;
      records.push_back(&*r->record);
      const detail::Measurement& pm = r->record->measurement;
      sample_groups.push_back(pm.samples);
      const double tick = pm.batch >= 1 ? pm.timer_resolution_seconds / static_cast<double>(pm.batch) : 0.0;
      if (std::isfinite(tick)) coarsest_tick = std::max(coarsest_tick, tick);
      real_values.push_back(number_or(r->benchmark, "real_time", std::nan("")));
      cpu_values.push_back(number_or(r->benchmark, "cpu_time", std::nan("")));
      groups.push_back({{"process", o->process},
                        {"pid", o->pid},
                        {"started_utc", o->started_utc},
                        {"position", o->position},
                        {"count", r->record->measurement.samples.size()},
                        {"batch", r->record->measurement.batch}});
    }
    detail::RunRecord record = merge_records(records);
    Json row = model_row.benchmark;
    const double real = middle(real_values);
    row["real_time"] = finite_or_null(real);
    row["cpu_time"] = finite_or_null(middle(cpu_values));
    row["samples"] = record.measurement.samples.size();
    row["batch"] = record.measurement.batch;
    const double seconds = real * seconds_per_unit(row.value("time_unit", std::string("ns")));
    if (row.contains("items_per_second") && seconds > 0.0) row["items_per_second"] = record.flops_per_run / seconds;
    if (row.contains("bytes_per_second") && seconds > 0.0) row["bytes_per_second"] = record.bytes_per_run / seconds;
    iteration_real[row.value("run_name", "")].push_back(real);
    iteration_cpu[row.value("run_name", "")].push_back(middle(cpu_values));
    merged.benchmark = std::move(row);
    AnalysisOptions by_process = options;
    by_process.process_groups = &sample_groups;
    by_process.process_resolution_seconds = coarsest_tick;
    merged.analysis = analyze_run(record, by_process);
    merged.record = std::move(record);
    merged.process_samples = std::move(groups);
    out.push_back(std::move(merged));
  }
}

}  // namespace

std::vector<MergedRow> merge_process_rows(const ProcessRunResults& results, const AnalysisOptions& options) {
  std::vector<MergedRow> rows;
  for (std::size_t i = 0; i < results.names.size(); ++i) {
    if (i < results.outcomes.size()) merge_benchmark(results.names[i], results.outcomes[i], options, rows);
  }
  return rows;
}

Json processes_json(const ProcessRunResults& results) {
  Json runs = Json::array();
  for (const auto& launch : results.launches) {
    runs.push_back({{"index", launch.process},
                    {"pid", launch.pid},
                    {"started_utc", launch.started_utc},
                    {"order", launch.order},
                    {"exit",
                     {{"code", launch.exit_code ? Json(*launch.exit_code) : Json()},
                      {"signal", launch.signal.empty() ? Json() : Json(launch.signal)},
                      {"timed_out", launch.timed_out}}}});
  }
  return {{"count", results.processes}, {"order_seed", results.order_seed}, {"isolated", true}, {"runs", runs}};
}

Json build_process_record(const ProcessRunResults& results, const std::vector<MergedRow>& rows, const Json& context,
                          const RecordHeader& header) {
  Json google_benchmark = {{"context", context}, {"benchmarks", Json::array()}};
  std::vector<std::optional<detail::RunRecord>> records;
  std::vector<std::optional<RunAnalysis>> analyses;
  for (const auto& row : rows) {
    google_benchmark["benchmarks"].push_back(row.benchmark);
    records.push_back(row.record);
    analyses.push_back(row.analysis);
  }
  Json record = build_record(google_benchmark.dump(), records, header, &analyses);
  std::size_t kept = 0;  // the index of rows[i] in `benchmarks`, which leaves some rows out
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (left_out_of_benchmarks(rows[i].record)) continue;
    if (!rows[i].process_samples.is_null() && record["benchmarks"][kept].contains("gbx")) {
      record["benchmarks"][kept]["gbx"]["process_samples"] = rows[i].process_samples;
    }
    ++kept;
  }
  record["gbx"]["processes"] = processes_json(results);
  return record;
}

bool any_failed(const std::vector<MergedRow>& rows) {
  for (const auto& row : rows) {
    if (row.benchmark.value("run_type", std::string()) != "iteration") continue;
    const bool skipped = row.record && row.record->skipped;
    if (is_error(row.benchmark) && !skipped) return true;
    if (row.record && row.record->accuracy && !row.record->accuracy->passed) return true;
  }
  return false;
}

}  // namespace gbx

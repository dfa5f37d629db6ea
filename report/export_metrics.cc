#include "report/export_metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "record/benchmark_row_keys.h"
#include "report/report_model_json.h"
#include "stats/hierarchical.h"
#include "stats/statistics.h"
#include "text/benchmark_name.h"

namespace gbx::tools {

namespace {

using json = nlohmann::json;
using report_json::number_at;
using report_json::object_at;
using report_json::string_at;

bool positive(const std::optional<double>& value) { return value && std::isfinite(*value) && *value > 0.0; }

double seconds_per_unit(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  return 1.0;
}

// The axes as written by the sweep (gbx.axes): an object {name: value}, or an array of {name, value}.
std::vector<std::pair<std::string, std::string>> read_axes(const json& gbx) {
  std::vector<std::pair<std::string, std::string>> axes;
  if (!gbx.contains("axes")) return axes;
  const json& value = gbx["axes"];
  if (value.is_object()) {
    for (const auto& [name, v] : value.items())
      axes.emplace_back(name, v.is_string() ? v.get<std::string>() : v.dump());
  } else if (value.is_array()) {
    for (const auto& item : value) {
      if (item.is_object() && item.contains("name"))
        axes.emplace_back(string_at(item, "name"), string_at(item, "value"));
    }
  }
  return axes;
}

// Whether the shown name already says an axis's value: one of its '/'-separated parts is "axis:..."
// (gbx's short form and Google Benchmark's ArgNames), or the value alone (Google Benchmark's unnamed
// arguments, which a plain benchmark's record lists as arg0, arg1, ...).
bool name_carries(const std::string& name, const std::string& axis, const std::string& value) {
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto slash = name.find('/', start);
    const std::string part = name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.rfind(axis + ":", 0) == 0 || part == value) return true;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return false;
}

// The shown name (text/benchmark_name.h), with the axes of gbx.axes that it does not carry as
// " [block=256]".
std::string dashboard_name(const ExportedBenchmark& b) {
  const std::string name = shown_benchmark_name(b.benchmark_name);
  std::string extra;
  for (const auto& [axis, value] : b.axes) {
    if (name_carries(name, axis, value)) continue;
    if (!extra.empty()) extra += ",";
    extra.append(axis).append("=").append(value);
  }
  return extra.empty() ? name : name + " [" + extra + "]";
}

// The latency: the recorded process-level estimate (gbx.stats.hierarchical), else the recorded median
// and its interval; repetitions of one name, or plain Google Benchmark JSON, are estimated here from
// the pooled samples, process by process.
std::optional<ExportedMetric> latency(const std::vector<const json*>& entries, const LoadedBenchmark& loaded) {
  ExportedMetric m;
  m.kind = MetricKind::latency;
  if (entries.size() == 1) {
    const json& stats = object_at(object_at(*entries.front(), "gbx"), "stats");
    const json& h = object_at(stats, "hierarchical");
    if (positive(number_at(h, "median")) && number_at(h, "lower") && number_at(h, "upper")) {
      m.value = *number_at(h, "median");
      m.lower = number_at(h, "lower");
      m.upper = number_at(h, "upper");
      m.level = number_at(h, "level").value_or(0.95);
      m.method = string_at(h, "method");
      const bool single = h.value("single_process", true);
      m.note = single ? "median, one process" : "process-level median over " + string_at(h, "processes") + " processes";
      return m;
    }
    if (positive(number_at(stats, "median"))) {
      m.value = *number_at(stats, "median");
      const json& ci = object_at(stats, "median_ci");
      m.lower = number_at(ci, "lower");
      m.upper = number_at(ci, "upper");
      if (!m.lower || !m.upper) m.lower = m.upper = std::nullopt;
      m.level = number_at(ci, "level").value_or(0.95);
      m.method = string_at(ci, "method");
      m.note = "median of the samples";
      return m;
    }
  }
  const auto estimate = hierarchical_median(loaded.process_samples, loaded.resolution_seconds);
  if (!estimate || !(estimate->median > 0.0)) return std::nullopt;
  m.value = estimate->median;
  if (loaded.samples.size() >= 2) {
    m.lower = estimate->lower;
    m.upper = estimate->upper;
  }
  m.level = estimate->level;
  m.method = estimate->method;
  m.note = estimate->single_process ? "median of the pooled samples"
                                    : "process-level median over " + std::to_string(estimate->processes) + " processes";
  return m;
}

// The seconds per iteration that Google Benchmark divided a row's rate counters by: real time for a
// benchmark timed by UseRealTime or UseManualTime (its name says real_time or manual_time), else CPU
// time. 0 when the row lacks it.
double rate_seconds(const json& entry) {
  const std::string name = string_at(entry, "name") + "/";
  const bool real = name.find("/real_time/") != std::string::npos || name.find("/manual_time/") != std::string::npos;
  const auto time = number_at(entry, real ? "real_time" : "cpu_time");
  return positive(time) ? *time * seconds_per_unit(string_at(entry, "time_unit")) : 0.0;
}

// The work per run behind a rate: the declared one, else what the recorded rate at the recorded median
// implies; for a plain benchmark, else Google Benchmark's rate counter times the time it divided by.
std::optional<double> work_per_run(MetricKind kind, const json& entry, bool plain) {
  const json& gbx = object_at(entry, "gbx");
  if (kind == MetricKind::item_rate) {  // no declared items: only the counter says them
    const auto counter = number_at(entry, "items_per_second");
    return positive(counter) ? std::optional<double>(*counter * rate_seconds(entry)) : std::nullopt;
  }
  const bool flops = kind == MetricKind::flop_rate;
  std::optional<double> work = number_at(object_at(gbx, "declared"), flops ? "flops_per_run" : "bytes_per_run");
  if (!positive(work)) {
    const auto at_median = number_at(object_at(gbx, "throughput"), flops ? "gflops_per_second" : "gbytes_per_second");
    const auto median = number_at(object_at(gbx, "stats"), "median");
    work = positive(at_median) && positive(median) ? std::optional<double>(*at_median * 1e9 * *median) : std::nullopt;
  }
  if (!positive(work) && plain && !flops) {
    const auto counter = number_at(entry, "bytes_per_second");
    if (positive(counter)) work = *counter * rate_seconds(entry);
  }
  return work;
}

// A rate is the work per run over the latency, so its interval is the work over the latency's bounds.
// A plain benchmark has an item rate and no FLOP rate; a gbx benchmark the reverse.
std::optional<ExportedMetric> rate(MetricKind kind, const json& entry, bool plain, const ExportedMetric& time) {
  if (kind == MetricKind::flop_rate && plain) return std::nullopt;   // its items are not FLOPs
  if (kind == MetricKind::item_rate && !plain) return std::nullopt;  // its items_per_second is its FLOP/s
  const auto work = work_per_run(kind, entry, plain);
  if (!positive(work)) return std::nullopt;
  ExportedMetric m;
  m.kind = kind;
  m.value = *work / time.value;
  if (positive(time.lower) && positive(time.upper)) {
    m.lower = *work / *time.upper;
    m.upper = *work / *time.lower;
    m.level = time.level;
    m.method = "work per run over the latency's bounds";
  }
  m.note = kind == MetricKind::flop_rate   ? "FLOP per run over the latency"
           : kind == MetricKind::item_rate ? "items per run (items_per_second times its time) over the latency"
                                           : "bytes per run over the latency";
  if (!std::isfinite(m.value)) return std::nullopt;
  return m;
}

// The row's user counters, each the median over the repetitions that give it a finite value.
std::vector<ExportedCounter> user_counters(const std::vector<const json*>& entries) {
  std::map<std::string, std::vector<double>> values;
  for (const json* entry : entries) {
    for (const auto& [key, value] : entry->items()) {
      if (!value.is_number() || !is_user_counter_key(key)) continue;
      const double v = value.get<double>();
      if (std::isfinite(v)) values[key].push_back(v);
    }
  }
  std::vector<ExportedCounter> counters;
  for (const auto& [name, list] : values) {
    if (const auto m = median(list)) counters.push_back({name, *m});
  }
  return counters;
}

std::optional<ExportedMetric> energy(const std::vector<const json*>& entries, const LoadedBenchmark& loaded,
                                     const std::string& region) {
  if (!positive(loaded.energy_joules)) return std::nullopt;
  ExportedMetric m;
  m.kind = MetricKind::energy;
  m.value = *loaded.energy_joules;
  m.note = region == "cpu" ? "CPU package energy per run (RAPL)" : "GPU energy per run (NVML)";
  if (entries.size() == 1) {
    const json& counter =
        object_at(object_at(object_at(*entries.front(), "gbx"), "energy"), region == "cpu" ? "cpu" : "gpu");
    const auto lower = number_at(counter, "lower");
    const auto upper = number_at(counter, "upper");
    if (lower && upper && *lower <= m.value && m.value <= *upper) {
      m.lower = lower;
      m.upper = upper;
    }
  } else {
    m.note += ", the largest over the repetitions";
  }
  return m;
}

// The accuracy error and the memory peak, as the reader found them.
void add_error_and_memory(const LoadedBenchmark& loaded, std::vector<ExportedMetric>& metrics) {
  if (loaded.error && std::isfinite(*loaded.error) && *loaded.error >= 0.0) {
    ExportedMetric m;
    m.kind = MetricKind::error;
    m.value = *loaded.error;
    m.note = "relative L2 error against the float64 reference";
    metrics.push_back(m);
  }
  if (positive(loaded.memory_bytes)) {
    ExportedMetric m;
    m.kind = MetricKind::peak_memory;
    m.value = *loaded.memory_bytes;
    m.note = loaded.memory_kind == "host_peak_bytes" ? "host peak bytes" : "device peak bytes";
    metrics.push_back(m);
  }
}

ExportMachine read_machine(const json& record) {
  ExportMachine machine;
  const json& environment = object_at(object_at(record, "gbx"), "environment");
  const json& host = object_at(environment, "host");
  machine.hostname = string_at(host, "hostname");
  if (machine.hostname.empty()) machine.hostname = string_at(object_at(record, "context"), "host_name");
  machine.cpu_model = string_at(host, "cpu_model");
  if (environment.contains("gpus") && environment["gpus"].is_array()) {
    machine.gpu_count = environment["gpus"].size();
    for (const auto& gpu : environment["gpus"]) {
      const std::string model = string_at(gpu, "name");
      if (!model.empty() &&
          std::find(machine.gpu_models.begin(), machine.gpu_models.end(), model) == machine.gpu_models.end())
        machine.gpu_models.push_back(model);
    }
  }
  const json& source = object_at(environment, "source");
  machine.commit = string_at(source, "commit");
  machine.dirty = source.value("dirty", false) == true;
  machine.branch = string_at(source, "branch");
  return machine;
}

}  // namespace

bool smaller_is_better(MetricKind kind) {
  return kind != MetricKind::flop_rate && kind != MetricKind::item_rate && kind != MetricKind::byte_rate;
}

bool is_user_counter_key(const std::string& key) {
  // Google Benchmark's own keys, then gbx's counters and the rates it exports as metrics.
  static const std::set<std::string> kGbxCounters{"items_per_second", "bytes_per_second", "samples", "batch"};
  return !is_google_benchmark_row_key(key) && kGbxCounters.count(key) == 0;
}

const char* metric_slug(MetricKind kind) {
  switch (kind) {
    case MetricKind::latency:
      return "latency";
    case MetricKind::flop_rate:
      return "flop-rate";
    case MetricKind::item_rate:
      return "item-rate";
    case MetricKind::byte_rate:
      return "byte-rate";
    case MetricKind::energy:
      return "energy";
    case MetricKind::error:
      return "relative-error";
    case MetricKind::peak_memory:
      return "peak-memory";
  }
  return "latency";
}

std::string ExportMachine::testbed() const {
  std::string gpus;
  for (const auto& model : gpu_models) gpus += (gpus.empty() ? "" : " + ") + model;
  if (!cpu_model.empty()) return gpus.empty() ? cpu_model : gpus + " / " + cpu_model;
  if (!gpus.empty()) return gpus;
  return hostname.empty() ? "unknown" : hostname;
}

ExportRun export_run(const LoadedRecord& record) {
  ExportRun run;
  run.path = record.path;
  run.record = &record.json;
  const json& gbx = object_at(record.json, "gbx");
  run.run_id = string_at(gbx, "run_id");
  run.created = string_at(gbx, "created_utc");
  if (run.created.empty()) run.created = string_at(object_at(record.json, "context"), "date");
  run.machine = read_machine(record.json);

  // The measured repetitions of each name, in the record's order: failed and skipped ones never count.
  std::vector<std::pair<std::string, std::vector<const json*>>> groups;
  std::map<std::string, std::size_t> index;
  std::set<std::string> failed;
  for (const auto& entry : record.json["benchmarks"]) {
    if (string_at(entry, "run_type") != "iteration") continue;
    const std::string name = string_at(entry, "name");
    const bool skipped = object_at(entry, "gbx").value("skipped", false) == true;
    if (entry.value("error_occurred", false) == true || skipped) {
      failed.insert(name);  // a name failed in any repetition has no trustworthy value
      continue;
    }
    auto found = index.find(name);
    if (found == index.end()) {
      found = index.emplace(name, groups.size()).first;
      groups.push_back({name, {}});
    }
    groups[found->second].second.push_back(&entry);
  }
  std::map<std::string, std::string> names;  // dashboard name -> Google Benchmark name
  for (const auto& [name, entries] : groups) {
    if (failed.count(name) > 0) continue;
    // C++17 lambdas cannot capture a structured binding (clang refuses it; GCC lets it pass).
    const std::string& wanted = name;
    const auto loaded = std::find_if(record.benchmarks.begin(), record.benchmarks.end(),
                                     [&wanted](const LoadedBenchmark& b) { return b.name == wanted; });
    if (loaded == record.benchmarks.end() || loaded->samples.empty()) continue;
    ExportedBenchmark b;
    const json& first = object_at(*entries.front(), "gbx");
    b.benchmark_name = name;
    b.problem = string_at(first, "problem");
    b.variant = string_at(first, "variant");
    b.region = string_at(first, "region");
    b.precision = string_at(first, "precision");
    b.cache = string_at(object_at(first, "measurement"), "cache");
    b.axes = read_axes(first);
    b.name = dashboard_name(b);
    b.plain = !entries.front()->contains("gbx") || string_at(first, "harness") == "google_benchmark";
    const auto time = latency(entries, *loaded);
    if (!time) continue;  // nothing measured that a dashboard could draw
    b.metrics.push_back(*time);
    for (const MetricKind kind : {MetricKind::flop_rate, MetricKind::item_rate, MetricKind::byte_rate}) {
      if (auto r = rate(kind, *entries.front(), b.plain, *time)) b.metrics.push_back(*r);
    }
    if (auto e = energy(entries, *loaded, b.region)) b.metrics.push_back(*e);
    add_error_and_memory(*loaded, b.metrics);
    // JSON holds no NaN or Infinity: a metric that is not finite is one the record does not give.
    b.metrics.erase(std::remove_if(b.metrics.begin(), b.metrics.end(),
                                   [](const ExportedMetric& m) {
                                     return !std::isfinite(m.value) || (m.lower && !std::isfinite(*m.lower)) ||
                                            (m.upper && !std::isfinite(*m.upper));
                                   }),
                    b.metrics.end());
    if (b.metrics.empty() || b.metrics.front().kind != MetricKind::latency) continue;
    b.counters = user_counters(entries);
    if (loaded->process_samples.size() >= 2) {
      for (const auto& group : loaded->process_samples) {
        if (const auto m = median(group)) b.latency_data.push_back(*m);
      }
      b.latency_data_per_process = true;
    } else {
      b.latency_data = loaded->samples;
    }
    auto [it, inserted] = names.emplace(b.name, name);
    if (!inserted) {
      // Only a plain name and a gbx one that differ in gbx's suffix alone can meet here.
      throw ExportError(record.path + ": benchmarks " + it->second + " and " + name + " are both shown as '" + b.name +
                        "'; rename one of them to export them");
    }
    run.benchmarks.push_back(std::move(b));
  }
  return run;
}

const ExportMachine& common_machine(const std::vector<ExportRun>& runs) {
  const ExportRun& first = runs.front();
  std::map<std::string, std::string> seen;  // dashboard name -> file
  for (const ExportRun& run : runs) {
    if (run.machine.testbed() != first.machine.testbed() || run.machine.commit != first.machine.commit) {
      throw ExportError(first.path + " and " + run.path + " come from different machines or commits (" +
                        first.machine.testbed() + " at " + (first.machine.commit.empty() ? "?" : first.machine.commit) +
                        "; " + run.machine.testbed() + " at " +
                        (run.machine.commit.empty() ? "?" : run.machine.commit) +
                        "): this format takes one testbed and commit per file; export them one at a time");
    }
    for (const ExportedBenchmark& b : run.benchmarks) {
      auto [it, inserted] = seen.emplace(b.name, run.path);
      if (!inserted) throw ExportError(it->second + " and " + run.path + " both hold '" + b.name + "'");
    }
  }
  return first.machine;
}

}  // namespace gbx::tools

#include "report/export_conbench.h"

#include <cmath>
#include <cstdint>
#include <tuple>
#include <utility>

#include "report/report_model_json.h"

namespace gbx::tools {

namespace {

using json = nlohmann::json;
using report_json::number_at;
using report_json::object_at;
using report_json::string_at;

std::int64_t integer_or_zero(const std::optional<double>& value) {
  return value && std::isfinite(*value) && *value >= 0.0 ? static_cast<std::int64_t>(std::llround(*value)) : 0;
}

// Google Benchmark's context.caches: the size of the cache of `type` at `level`, if listed.
std::optional<double> cache_bytes(const json& record, const std::string& type, int level) {
  const json& context = object_at(record, "context");
  if (!context.contains("caches") || !context["caches"].is_array()) return std::nullopt;
  for (const auto& cache : context["caches"]) {
    if (string_at(cache, "type") == type && number_at(cache, "level") == static_cast<double>(level))
      return number_at(cache, "size");
  }
  return std::nullopt;
}

json machine_info(const ExportRun& run) {
  const json& record = *run.record;
  const json& host = object_at(object_at(object_at(record, "gbx"), "environment"), "host");
  const json& context = object_at(record, "context");
  const auto mhz = number_at(context, "mhz_per_cpu");
  auto threads = number_at(host, "logical_cpus");
  if (!threads) threads = number_at(context, "num_cpus");
  return {{"name", run.machine.hostname},
          {"architecture_name", string_at(host, "machine")},
          {"kernel_name", string_at(host, "kernel")},
          {"os_name", string_at(host, "os")},
          {"os_version", string_at(host, "distribution")},
          {"cpu_model_name", run.machine.cpu_model},
          {"cpu_l1d_cache_bytes", integer_or_zero(cache_bytes(record, "Data", 1))},
          {"cpu_l1i_cache_bytes", integer_or_zero(cache_bytes(record, "Instruction", 1))},
          {"cpu_l2_cache_bytes", integer_or_zero(cache_bytes(record, "Unified", 2))},
          {"cpu_l3_cache_bytes", integer_or_zero(cache_bytes(record, "Unified", 3))},
          {"cpu_core_count", integer_or_zero(number_at(host, "physical_cores"))},
          {"cpu_thread_count", integer_or_zero(threads)},
          {"cpu_frequency_max_hz", integer_or_zero(mhz ? std::optional<double>(*mhz * 1e6) : std::nullopt)},
          {"memory_bytes", integer_or_zero(number_at(host, "memory_total_bytes"))},
          {"gpu_count", run.machine.gpu_count},
          {"gpu_product_names", run.machine.gpu_models}};
}

json context_of(const ExportRun& run, const ExportedBenchmark& b) {
  const json& build = object_at(object_at(object_at(*run.record, "gbx"), "environment"), "build");
  json context = {{"benchmark_language", "C++"}};
  for (const auto& [key, value] : {std::pair<const char*, std::string>{"compiler", string_at(build, "compiler")},
                                   {"build_type", string_at(build, "build_type")},
                                   {"region", b.region},
                                   {"precision", b.precision},
                                   {"cache", b.cache}}) {
    if (!value.empty()) context[key] = value;
  }
  return context;
}

json interval_json(const ExportedMetric& m) {
  json j = {{"value", m.value}, {"what", m.note}};
  if (m.lower && m.upper) {
    j["lower"] = *m.lower;
    j["upper"] = *m.upper;
    j["level"] = m.level;
    if (!m.method.empty()) j["method"] = m.method;
  }
  return j;
}

const ExportedMetric* find(const ExportedBenchmark& b, MetricKind kind) {
  for (const auto& m : b.metrics) {
    if (m.kind == kind) return &m;
  }
  return nullptr;
}

}  // namespace

json conbench_results(const std::vector<ExportRun>& runs, const ConbenchOptions& options) {
  json results = json::array();
  for (const ExportRun& run : runs) {
    if (run.created.empty()) throw ExportError(run.path + ": the record has no date, and Conbench needs a timestamp");
    const std::string run_id = run.run_id.empty() ? "gbx-" + run.created : run.run_id;
    json github = {{"repository", options.repository}};
    if (!run.machine.commit.empty()) github["commit"] = run.machine.commit;
    const json machine = machine_info(run);
    for (const ExportedBenchmark& b : run.benchmarks) {
      const auto result = [&](const char* metric, const char* unit, json data) {
        json r = {{"run_id", run_id},
                  {"batch_id", run_id},
                  {"timestamp", run.created},
                  {"tags", {{"name", b.name}, {"metric", metric}}},
                  {"stats", {{"data", std::move(data)}, {"unit", unit}}},
                  {"context", context_of(run, b)},
                  {"info", {{"gbx_benchmark", b.benchmark_name}}},
                  {"machine_info", machine},
                  {"github", github}};
        if (!options.run_reason.empty()) r["run_reason"] = options.run_reason;
        return r;
      };
      const ExportedMetric& time = *find(b, MetricKind::latency);
      json latency = result("latency", "s", b.latency_data);
      json gbx = {{"latency_seconds", interval_json(time)},
                  {"latency_data", b.latency_data_per_process ? "process medians" : "samples"}};
      if (const auto* e = find(b, MetricKind::energy)) gbx["energy_joules_per_run"] = interval_json(*e);
      if (const auto* e = find(b, MetricKind::error)) gbx["relative_l2_error"] = e->value;
      if (!b.counters.empty()) {
        json counters = json::object();
        for (const ExportedCounter& c : b.counters) counters[c.name] = c.value;
        gbx["counters"] = std::move(counters);
      }
      latency["optional_benchmark_info"] = {{"gbx", gbx}};
      results.push_back(std::move(latency));
      for (const auto& [kind, metric, unit] :
           {std::tuple<MetricKind, const char*, const char*>{MetricKind::byte_rate, "byte-rate", "B/s"},
            {MetricKind::flop_rate, "flop-rate", "i/s"},
            {MetricKind::item_rate, "item-rate", "i/s"}}) {
        const ExportedMetric* r = find(b, kind);
        if (r == nullptr) continue;
        const double work = r->value * time.value;
        json data = json::array();
        for (const double seconds : b.latency_data) {
          if (seconds > 0.0) data.push_back(work / seconds);
        }
        // A sample below the timer's tick reads 0 s and has no rate: the estimate stands in alone.
        if (data.size() != b.latency_data.size()) data = json::array({r->value});
        json out = result(metric, unit, std::move(data));
        out["optional_benchmark_info"] = {{"gbx", {{"rate", interval_json(*r)}}}};
        results.push_back(std::move(out));
      }
      if (const auto* m = find(b, MetricKind::peak_memory)) {
        json out = result("peak-memory", "B", json::array({m->value}));
        out["optional_benchmark_info"] = {{"gbx", {{"peak_memory", m->note}}}};
        results.push_back(std::move(out));
      }
    }
  }
  return results;
}

}  // namespace gbx::tools

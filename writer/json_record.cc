#include "writer/json_record.h"

#include <cmath>
#include <ctime>
#include <random>
#include <set>
#include <stdexcept>

#include "record/json_number.h"
#include "writer/axes_json.h"
#include "writer/load_json.h"
#include "writer/observations_json.h"

namespace gbx {

namespace {

nlohmann::json protocol_json(const detail::Protocol& p) {
  return {{"warmup_runs", p.warmup_runs},
          {"min_samples", p.min_samples},
          {"max_samples", p.max_samples},
          {"max_time_seconds", finite_or_null(p.max_time_seconds)},
          {"cache", to_string(p.cache)},
          {"target_rel_ci", p.target_rel_ci > 0.0 ? finite_or_null(p.target_rel_ci) : nlohmann::json()},
          {"min_time_seconds", p.min_time_seconds > 0.0 ? finite_or_null(p.min_time_seconds) : nlohmann::json()},
          {"batch_resolution_factor", finite_or_null(p.batch_resolution_factor)},
          {"processes", p.processes},
          {"warmup", p.warmup_auto ? "auto" : "fixed"},
          {"warmup_max_samples", p.warmup_auto ? nlohmann::json(p.warmup_max_samples) : nlohmann::json()}};
}

nlohmann::json accuracy_json(const detail::RunRecord& r) {
  if (!r.accuracy) return nullptr;
  const Accuracy& a = *r.accuracy;
  return {{"rel_l2_error", finite_or_null(a.rel_l2_error)},
          {"max_abs_error", finite_or_null(a.max_abs_error)},
          {"nan_count", a.nan_count},
          {"reference", a.reference},
          {"tolerance", finite_or_null(a.tolerance)},
          {"passed", a.passed}};
}

nlohmann::json memory_json(const detail::MemoryUsage& m) {
  nlohmann::json j;
  const auto put = [&j](const char* key, const std::optional<std::int64_t>& value, const std::string& reason) {
    j[key] = value ? nlohmann::json(*value) : nlohmann::json();
    if (!value && !reason.empty()) j[std::string(key) + "_unavailable"] = reason;
  };
  put("device_bytes", m.device_bytes, m.device_bytes_unavailable);
  put("device_peak_bytes", m.device_peak_bytes, m.device_peak_bytes_unavailable);
  put("host_peak_bytes", m.host_peak_bytes, m.host_peak_bytes_unavailable);
  return j;
}

}  // namespace

nlohmann::json entry_json(const detail::RunRecord& r, bool aggregate, const RunAnalysis* analysis) {
  nlohmann::json g = {{"problem", r.problem}, {"variant", r.variant}, {"region", r.region}};
  if (!r.axes.empty()) g["axes"] = axes_record_json(r.axes);
  if (const auto names = variant_axes_json(r.axes); !names.is_null()) g["variant_axes"] = names;
  if (aggregate) return g;
  const detail::Measurement& m = r.measurement;
  g["declared"] = {{"flops_per_run", finite_or_null(r.flops_per_run)},
                   {"bytes_per_run", finite_or_null(r.bytes_per_run)},
                   {"seed", r.seed},
                   // The dataset's version: the seed and how values are drawn from it.
                   {"generator", "std::mt19937_64, uniform in [-1, 1); the i-th input of setup() from seed + i"}};
  g["skipped"] = r.skipped;
  if (r.harness != "gbx") g["harness"] = r.harness;
  if (!r.precision.empty()) g["precision"] = r.precision;
  g["accuracy"] = accuracy_json(r);
  g["memory"] = memory_json(r.memory);
  if (!r.error.empty()) return g;
  g["measurement"] = {{"timer", to_string(m.timer)},
                      {"timer_resolution_seconds", finite_or_null(m.timer_resolution_seconds)},
                      {"cache", to_string(m.cache)},
                      {"batch", m.batch},
                      {"warmup_runs", m.warmup_runs},
                      {"calibration_runs", m.calibration_runs},
                      {"flushes", m.flushes},
                      {"wall_seconds", finite_or_null(m.wall_seconds)},
                      {"cpu_seconds_per_run", finite_or_null(m.cpu_seconds_per_run)},
                      {"sampling_seconds", finite_or_null(m.sampling_seconds)},
                      {"time_bound_reached", m.time_bound_reached},
                      {"sample_bound_reached", m.sample_bound_reached},
                      {"below_resolution", m.below_resolution}};
  if (const auto rotation = rotation_json(m); !rotation.is_null()) g["measurement"]["rotation"] = rotation;
  if (m.warmup.mode == "auto") {
    g["measurement"]["warmup"] = {{"mode", m.warmup.mode},       {"runs", m.warmup.runs},
                                  {"samples", m.warmup.samples}, {"stopped", m.warmup.stopped},
                                  {"steady", m.warmup.steady},   {"max_samples", m.warmup.max_samples}};
  }
  const detail::StoppingOutcome& stop = r.stopping;
  g["measurement"]["stopping"] = {
      {"rule", stop.rule},
      {"target_rel_ci", stop.rule == "target_rel_ci" ? finite_or_null(stop.target_rel_ci) : nlohmann::json()},
      {"min_time_seconds", stop.min_time_seconds > 0.0 ? finite_or_null(stop.min_time_seconds) : nlohmann::json()},
      {"reached", stop.reached},
      {"achieved_rel_ci", stop.achieved_rel_ci ? finite_or_null(*stop.achieved_rel_ci) : nlohmann::json()}};
  nlohmann::json samples = nlohmann::json::array();
  for (double s : m.samples) samples.push_back(finite_or_null(s));
  g["samples"] = std::move(samples);
  const RunAnalysis computed = analysis != nullptr ? RunAnalysis{} : analyze_run(r);
  const RunAnalysis& a = analysis != nullptr ? *analysis : computed;
  g["throughput"] = throughput_json(a.throughput);
  g["stats"] = stats_json(a);
  g["outliers"] = outliers_json(a);
  g["flags"] = flags_json(a);
  if (const auto energy = energy_json(r.observed); !energy.is_null()) g["energy"] = energy;
  if (const auto clocks = clocks_json(r.observed); !clocks.is_null()) g["clocks"] = clocks;
  if (r.load) g["load"] = load_json(*r.load);
  return g;
}

bool left_out_of_benchmarks(const std::optional<detail::RunRecord>& entry) {
  return entry && (entry->interrupted || entry->skipped);
}

nlohmann::json not_run_json(const std::string& name, const detail::RunRecord& r) {
  const std::string suffix = "/" + r.variant;
  const bool ends_with_variant = r.benchmark.size() > suffix.size() &&
                                 r.benchmark.compare(r.benchmark.size() - suffix.size(), suffix.size(), suffix) == 0;
  const std::string family =
      ends_with_variant ? r.benchmark.substr(0, r.benchmark.size() - suffix.size()) : r.benchmark;
  const std::string prefix = "skipped: ";
  const std::string reason = r.error.rfind(prefix, 0) == 0 ? r.error.substr(prefix.size()) : r.error;
  return {{"name", name},         {"family", family},
          {"problem", r.problem}, {"variant", r.variant},
          {"reason", reason},     {"reason_code", r.skip_code.empty() ? "unavailable" : r.skip_code}};
}

std::string new_run_id() {
  std::random_device device;
  std::mt19937_64 rng((static_cast<std::uint64_t>(device()) << 32) ^ device());
  std::uint64_t hi = rng();
  std::uint64_t lo = rng();
  // RFC 4122: version 4 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
  hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48), static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return text;
}

std::string utc_timestamp(bool compact) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string replace_non_finite_with_null(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    std::size_t length = 0;
    for (const char* word : {"-Infinity", "Infinity", "-inf", "inf", "-NaN", "NaN", "-nan", "nan"}) {
      const std::string w = word;
      if (text.compare(i, w.size(), w) == 0) {
        length = w.size();
        break;
      }
    }
    if (length > 0) {
      out += "null";
      i += length - 1;
    } else {
      out += c;
    }
  }
  return out;
}

nlohmann::json build_record(const std::string& google_benchmark_json,
                            const std::vector<std::optional<detail::RunRecord>>& entries, const RecordHeader& header,
                            const std::vector<std::optional<RunAnalysis>>* analyses) {
  nlohmann::json record = nlohmann::json::parse(replace_non_finite_with_null(google_benchmark_json));
  auto& benchmarks = record["benchmarks"];
  if (!benchmarks.is_array()) benchmarks = nlohmann::json::array();
  if (benchmarks.size() != entries.size()) {
    throw std::logic_error("record: " + std::to_string(benchmarks.size()) + " benchmark entries but " +
                           std::to_string(entries.size()) + " runs reported");
  }
  nlohmann::json kept = nlohmann::json::array();
  nlohmann::json not_run = nlohmann::json::array();
  std::set<std::string> listed;  // a skip repeats once per repetition; it is listed once
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i] && entries[i]->skipped && !entries[i]->interrupted) {
      const std::string name = benchmarks[i].value("run_name", benchmarks[i].value("name", std::string()));
      if (listed.insert(name).second) not_run.push_back(not_run_json(name, *entries[i]));
    }
    if (left_out_of_benchmarks(entries[i])) continue;
    if (entries[i]) {
      const RunAnalysis* analysis =
          analyses != nullptr && i < analyses->size() && (*analyses)[i] ? &*(*analyses)[i] : nullptr;
      benchmarks[i]["gbx"] = entry_json(*entries[i], benchmarks[i].value("run_type", "") == "aggregate", analysis);
    }
    kept.push_back(std::move(benchmarks[i]));
  }
  benchmarks = std::move(kept);
  nlohmann::json& top = record["gbx"];
  top["schema_version"] = 1;
  top["run_id"] = header.run_id;
  top["created_utc"] = header.created_utc;
  top["command"] = header.command;
  top["interrupted"] = header.interrupted;
  top["protocol"] = protocol_json(header.protocol);
  top["environment"] = header.environment;
  if (!not_run.empty()) top["not_run"] = std::move(not_run);
  for (const auto& [key, value] : header.sections.items()) top[key] = value;
  return record;
}

}  // namespace gbx

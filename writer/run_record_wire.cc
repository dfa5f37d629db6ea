#include "writer/run_record_wire.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "record/json_number.h"
#include "writer/axes_json.h"
#include "writer/load_json.h"
#include "writer/observations_json.h"

namespace gbx {

namespace {

using Json = nlohmann::json;

detail::TimerKind timer_from(const std::string& text) {
  for (detail::TimerKind kind : {detail::TimerKind::cuda_event, detail::TimerKind::host_wall, detail::TimerKind::cpu,
                                 detail::TimerKind::simulated, detail::TimerKind::manual}) {
    if (text == to_string(kind)) return kind;
  }
  throw std::runtime_error("unknown timer '" + text + "' in a child's report");
}

}  // namespace

Json run_record_json(const detail::RunRecord& r) {
  Json j = {{"benchmark", r.benchmark},
            {"args", r.args},
            {"problem", r.problem},
            {"variant", r.variant},
            {"region", r.region},
            {"harness", r.harness},
            {"flops_per_run", finite_or_null(r.flops_per_run)},
            {"bytes_per_run", finite_or_null(r.bytes_per_run)},
            {"seed", r.seed},
            {"precision", r.precision},
            {"skipped", r.skipped},
            {"skip_code", r.skip_code},
            {"interrupted", r.interrupted},
            {"error", r.error}};
  if (r.accuracy) {
    const Accuracy& a = *r.accuracy;
    j["accuracy"] = {{"rel_l2_error", finite_or_null(a.rel_l2_error)},
                     {"max_abs_error", finite_or_null(a.max_abs_error)},
                     {"nan_count", a.nan_count},
                     {"reference", a.reference},
                     {"tolerance", finite_or_null(a.tolerance)},
                     {"passed", a.passed},
                     {"note", a.note}};
  }
  const detail::MemoryUsage& mem = r.memory;
  j["memory"] = {{"device_bytes", mem.device_bytes ? Json(*mem.device_bytes) : Json()},
                 {"device_bytes_unavailable", mem.device_bytes_unavailable},
                 {"device_peak_bytes", mem.device_peak_bytes ? Json(*mem.device_peak_bytes) : Json()},
                 {"device_peak_bytes_unavailable", mem.device_peak_bytes_unavailable},
                 {"host_peak_bytes", mem.host_peak_bytes ? Json(*mem.host_peak_bytes) : Json()},
                 {"host_peak_bytes_unavailable", mem.host_peak_bytes_unavailable}};
  const detail::Measurement& m = r.measurement;
  Json samples = Json::array();
  for (double s : m.samples) samples.push_back(finite_or_null(s));
  j["measurement"] = {{"samples", std::move(samples)},
                      {"batch", m.batch},
                      {"warmup_runs", m.warmup_runs},
                      {"calibration_runs", m.calibration_runs},
                      {"flushes", m.flushes},
                      {"timer_resolution_seconds", finite_or_null(m.timer_resolution_seconds)},
                      {"timer", to_string(m.timer)},
                      {"cache", to_string(m.cache)},
                      {"wall_seconds", finite_or_null(m.wall_seconds)},
                      {"cpu_seconds_per_run", finite_or_null(m.cpu_seconds_per_run)},
                      {"sampling_seconds", finite_or_null(m.sampling_seconds)},
                      {"time_bound_reached", m.time_bound_reached},
                      {"sample_bound_reached", m.sample_bound_reached},
                      {"enough_reached", m.enough_reached},
                      {"below_resolution", m.below_resolution},
                      {"warmup",
                       {{"mode", m.warmup.mode},
                        {"runs", m.warmup.runs},
                        {"samples", m.warmup.samples},
                        {"stopped", m.warmup.stopped},
                        {"steady", m.warmup.steady},
                        {"max_samples", m.warmup.max_samples}}}};
  j["stopping"] = {
      {"rule", r.stopping.rule},
      {"target_rel_ci", finite_or_null(r.stopping.target_rel_ci)},
      {"min_time_seconds", finite_or_null(r.stopping.min_time_seconds)},
      {"reached", r.stopping.reached},
      {"achieved_rel_ci", r.stopping.achieved_rel_ci ? finite_or_null(*r.stopping.achieved_rel_ci) : Json()}};
  j["energy"] = energy_json(r.observed);
  j["clocks"] = clocks_json(r.observed);
  if (r.load) j["load"] = load_json(*r.load);
  if (!r.axes.empty()) j["axes"] = axes_wire_json(r.axes);
  if (const auto rotation = rotation_json(m); !rotation.is_null()) j["measurement"]["rotation"] = rotation;
  return j;
}

detail::RunRecord run_record_from_json(const Json& j) {
  detail::RunRecord r;
  r.benchmark = j.at("benchmark").get<std::string>();
  r.args = j.at("args").get<std::vector<std::int64_t>>();
  r.problem = j.at("problem").get<std::string>();
  r.variant = j.at("variant").get<std::string>();
  r.region = j.at("region").get<std::string>();
  r.harness = j.value("harness", std::string("gbx"));
  r.flops_per_run = number_or(j, "flops_per_run", std::nan(""));
  r.bytes_per_run = number_or(j, "bytes_per_run", std::nan(""));
  r.seed = j.at("seed").get<std::uint64_t>();
  r.precision = j.at("precision").get<std::string>();
  r.skipped = j.at("skipped").get<bool>();
  r.skip_code = j.value("skip_code", std::string());
  r.interrupted = j.at("interrupted").get<bool>();
  r.error = j.at("error").get<std::string>();
  if (const auto a = j.find("accuracy"); a != j.end() && a->is_object()) {
    Accuracy acc;
    acc.rel_l2_error = number_or(*a, "rel_l2_error", std::nan(""));
    acc.max_abs_error = number_or(*a, "max_abs_error", std::nan(""));
    acc.nan_count = a->at("nan_count").get<std::int64_t>();
    acc.reference = a->at("reference").get<std::string>();
    acc.tolerance = number_or(*a, "tolerance", std::nan(""));
    acc.passed = a->at("passed").get<bool>();
    acc.note = a->value("note", std::string());
    r.accuracy = acc;
  }
  const Json& mem = j.at("memory");
  r.memory.device_bytes = optional_from<std::int64_t>(mem, "device_bytes");
  r.memory.device_bytes_unavailable = mem.at("device_bytes_unavailable").get<std::string>();
  r.memory.device_peak_bytes = optional_from<std::int64_t>(mem, "device_peak_bytes");
  r.memory.device_peak_bytes_unavailable = mem.at("device_peak_bytes_unavailable").get<std::string>();
  r.memory.host_peak_bytes = optional_from<std::int64_t>(mem, "host_peak_bytes");
  r.memory.host_peak_bytes_unavailable = mem.at("host_peak_bytes_unavailable").get<std::string>();
  const Json& m = j.at("measurement");
  detail::Measurement& out = r.measurement;
  for (const auto& s : m.at("samples")) out.samples.push_back(s.is_number() ? s.get<double>() : std::nan(""));
  out.batch = m.at("batch").get<std::int64_t>();
  out.warmup_runs = m.at("warmup_runs").get<std::int64_t>();
  out.calibration_runs = m.at("calibration_runs").get<std::int64_t>();
  out.flushes = m.at("flushes").get<std::int64_t>();
  out.timer_resolution_seconds = number_or(m, "timer_resolution_seconds", std::nan(""));
  out.timer = timer_from(m.at("timer").get<std::string>());
  const std::string cache = m.at("cache").get<std::string>();
  out.cache = cache == "cold" ? detail::CacheMode::cold
                              : (cache == "rotate" ? detail::CacheMode::rotate : detail::CacheMode::hot);
  if (const auto rotation = m.find("rotation"); rotation != m.end()) rotation_from_json(*rotation, out);
  out.wall_seconds = number_or(m, "wall_seconds", std::nan(""));
  out.cpu_seconds_per_run = number_or(m, "cpu_seconds_per_run", std::nan(""));
  out.sampling_seconds = number_or(m, "sampling_seconds", 0.0);
  out.time_bound_reached = m.at("time_bound_reached").get<bool>();
  out.sample_bound_reached = m.at("sample_bound_reached").get<bool>();
  out.enough_reached = m.at("enough_reached").get<bool>();
  out.below_resolution = m.at("below_resolution").get<bool>();
  if (const auto w = m.find("warmup"); w != m.end() && w->is_object()) {
    out.warmup.mode = w->value("mode", std::string("fixed"));
    out.warmup.runs = w->value("runs", out.warmup_runs);
    out.warmup.samples = w->value("samples", std::int64_t{0});
    out.warmup.stopped = w->value("stopped", std::string("count"));
    out.warmup.steady = w->value("steady", true);
    out.warmup.max_samples = w->value("max_samples", std::int64_t{0});
  }
  r.observed = observations_from_json(j.value("energy", Json()), j.value("clocks", Json()));
  const Json& stop = j.at("stopping");
  r.stopping.rule = stop.at("rule").get<std::string>();
  r.stopping.target_rel_ci = number_or(stop, "target_rel_ci", 0.0);
  r.stopping.min_time_seconds = number_or(stop, "min_time_seconds", 0.0);
  r.stopping.reached = stop.at("reached").get<bool>();
  r.stopping.achieved_rel_ci = optional_from<double>(stop, "achieved_rel_ci");
  // The load sweep of each process; the merge keeps the first process's (docs/load.md).
  if (const auto load = j.find("load"); load != j.end() && load->is_object()) r.load = load_from_json(*load);
  if (const auto axes = j.find("axes"); axes != j.end()) r.axes = axes_from_wire(*axes);
  return r;
}

}  // namespace gbx

#include "report/report_model_json.h"

#include <cmath>

#include "text/format.h"

namespace gbx::tools::report_json {

using json = nlohmann::json;

std::optional<double> number_at(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) return std::nullopt;
  const double value = object[key].get<double>();
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

const json& object_at(const json& object, const char* key) {
  static const json empty = json::object();
  if (!object.is_object() || !object.contains(key) || !object[key].is_object()) return empty;
  return object[key];
}

std::string string_at(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return "";
  const json& value = object[key];
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_null()) return "";
  return value.dump();
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : separator) + parts[i];
  return text;
}

std::string join_words(const std::vector<std::string>& parts) {
  if (parts.size() <= 1) return join(parts, "");
  return join(std::vector<std::string>(parts.begin(), parts.end() - 1), ", ") + " and " + parts.back();
}

namespace {

// The value, or why it is missing when the record says (`<key>_unavailable`), or nothing.
std::string fact_or_reason(const json& object, const char* key) {
  std::string value = string_at(object, key);
  if (!value.empty()) return value;
  const std::string reason = string_at(object, (std::string(key) + "_unavailable").c_str());
  return reason.empty() ? "" : "unavailable (" + reason + ")";
}

void add_fact(std::vector<Fact>& facts, const std::string& label, const std::string& value) {
  if (!value.empty()) facts.emplace_back(label, value);
}

std::string peak_text(const json& peak) {
  std::vector<std::string> parts;
  for (const auto& [precision, value] : object_at(peak, "flops_per_second").items()) {
    if (value.is_number())
      parts.push_back(format_three_digits_compact(value.get<double>() / 1e9) + " GFLOP/s " + precision);
  }
  if (const auto bytes = number_at(peak, "bytes_per_second")) {
    parts.push_back(format_three_digits_compact(*bytes / 1e9) + " GB/s");
  }
  if (parts.empty()) return string_at(peak, "unavailable");
  return join(parts, ", ");
}

// "yes (the evidence)", "no", or why it cannot be told; nothing for a record from before gbx read it.
std::string virtual_machine_fact(const json& host) {
  const json& virtualization = object_at(host, "virtualization");
  if (!virtualization.contains("guest")) return "";
  if (!virtualization["guest"].is_boolean()) return fact_or_reason(virtualization, "guest");
  if (!virtualization["guest"].get<bool>()) return "no (no sign of a hypervisor)";
  std::vector<std::string> evidence;
  for (const json& item : virtualization.value("evidence", json::array())) {
    if (item.is_string()) evidence.push_back(item.get<std::string>());
  }
  return evidence.empty() ? "yes" : "yes (" + join(evidence, ", ") + ")";
}

// "clocksource kvm-clock, transparent huge pages madvise, pti=on tsc=reliable".
std::string kernel_settings_fact(const json& host) {
  std::vector<std::string> parts;
  if (!string_at(host, "clocksource").empty()) parts.push_back("clocksource " + string_at(host, "clocksource"));
  if (!string_at(host, "transparent_hugepage").empty()) {
    parts.push_back("transparent huge pages " + string_at(host, "transparent_hugepage"));
  }
  std::vector<std::string> parameters;
  if (host.contains("kernel_parameters") && host["kernel_parameters"].is_array()) {
    for (const json& parameter : host["kernel_parameters"]) {
      if (parameter.is_string()) parameters.push_back(parameter.get<std::string>());
    }
  }
  if (!parameters.empty()) parts.push_back(join(parameters, " "));
  return join(parts, ", ");
}

}  // namespace

std::vector<Fact> gbx_environment(const json& record) {
  const json& gbx = object_at(record, "gbx");
  const json& environment = object_at(gbx, "environment");
  const json& host = object_at(environment, "host");
  const json& build = object_at(environment, "build");
  const json& source = object_at(environment, "source");
  std::vector<Fact> facts;
  add_fact(facts, "host", string_at(host, "hostname"));
  add_fact(facts, "CPU", fact_or_reason(host, "cpu_model"));
  std::vector<std::string> cores;
  if (const auto n = number_at(host, "physical_cores")) cores.push_back(format_three_digits_compact(*n) + " physical");
  if (const auto n = number_at(host, "logical_cpus")) cores.push_back(format_three_digits_compact(*n) + " logical");
  if (const auto n = number_at(host, "allowed_cpus")) cores.push_back(format_three_digits_compact(*n) + " allowed");
  if (host.contains("smt") && host["smt"].is_boolean()) cores.push_back(host["smt"].get<bool>() ? "SMT on" : "SMT off");
  add_fact(facts, "cores", join(cores, ", "));
  if (const auto bytes = number_at(host, "memory_total_bytes")) add_fact(facts, "memory", format_bytes(*bytes));
  std::vector<std::string> os;
  for (const char* key : {"distribution", "os", "kernel", "machine"}) {
    if (!string_at(host, key).empty()) os.push_back(string_at(host, key));
  }
  add_fact(facts, "OS", join(os, ", "));
  add_fact(facts, "governor", fact_or_reason(host, "governor"));
  add_fact(facts, "virtual machine", virtual_machine_fact(host));
  add_fact(facts, "kernel", kernel_settings_fact(host));
  std::vector<std::string> gpus;
  if (environment.contains("gpus") && environment["gpus"].is_array()) {
    for (const auto& gpu : environment["gpus"]) {
      std::string text = string_at(gpu, "name");
      std::vector<std::string> details;
      if (!string_at(gpu, "compute_capability").empty())
        details.push_back("sm " + string_at(gpu, "compute_capability"));
      if (!string_at(gpu, "driver_version").empty()) details.push_back("driver " + string_at(gpu, "driver_version"));
      if (!string_at(gpu, "runtime_version").empty()) details.push_back("runtime " + string_at(gpu, "runtime_version"));
      if (!details.empty()) text += " (" + join(details, ", ") + ")";
      gpus.push_back(text);
    }
  }
  if (gpus.empty()) {
    const std::string reason = string_at(environment, "gpus_unavailable");
    add_fact(facts, "GPUs", reason.empty() ? "none" : "none (" + reason + ")");
  } else {
    add_fact(facts, "GPUs", join(gpus, "; "));
  }
  std::string compiler = string_at(build, "compiler");
  if (!string_at(build, "flags").empty()) compiler += " " + string_at(build, "flags");
  add_fact(facts, "compiler", compiler);
  add_fact(facts, "build type", string_at(build, "build_type"));
  std::string benchmark_version = string_at(build, "google_benchmark");
  if (!string_at(build, "google_benchmark_library_build_type").empty()) {
    benchmark_version += " (library built as " + string_at(build, "google_benchmark_library_build_type") + ")";
  }
  add_fact(facts, "Google Benchmark", benchmark_version);
  add_fact(facts, "CUDA toolkit", string_at(build, "cuda_toolkit"));
  add_fact(facts, "cuBLAS", string_at(build, "cublas"));
  add_fact(facts, "OpenBLAS", string_at(build, "openblas"));
  std::string commit = string_at(source, "commit");
  if (!commit.empty()) {
    commit = commit.substr(0, 12);
    if (source.contains("dirty") && source["dirty"] == true) commit += " (dirty: uncommitted changes)";
    if (!string_at(source, "branch").empty()) commit += " on " + string_at(source, "branch");
  }
  add_fact(facts, "commit", commit);
  const json& peaks = object_at(environment, "peaks");
  add_fact(facts, "CPU peak", peak_text(object_at(peaks, "cpu")));
  add_fact(facts, "GPU peak", peak_text(object_at(peaks, "gpu")));
  if (gbx.contains("command") && gbx["command"].is_array()) {
    std::vector<std::string> argv;
    for (const auto& arg : gbx["command"]) argv.push_back(arg.is_string() ? arg.get<std::string>() : arg.dump());
    add_fact(facts, "command", join(argv, " "));
  }
  return facts;
}

std::vector<Fact> plain_environment(const json& record) {
  const json& context = object_at(record, "context");
  std::vector<Fact> facts;
  add_fact(facts, "host", string_at(context, "host_name"));
  std::string cpus = string_at(context, "num_cpus");
  if (!cpus.empty() && !string_at(context, "mhz_per_cpu").empty())
    cpus += " at " + string_at(context, "mhz_per_cpu") + " MHz";
  add_fact(facts, "CPUs", cpus);
  add_fact(facts, "CPU scaling enabled", string_at(context, "cpu_scaling_enabled"));
  add_fact(facts, "Google Benchmark library build", string_at(context, "library_build_type"));
  add_fact(facts, "executable", string_at(context, "executable"));
  return facts;
}

std::vector<Fact> protocol_facts(const json& record) {
  const json& protocol = object_at(object_at(record, "gbx"), "protocol");
  std::vector<Fact> facts;
  add_fact(facts, "warm-up runs", string_at(protocol, "warmup_runs"));
  add_fact(facts, "samples",
           string_at(protocol, "min_samples").empty()
               ? ""
               : string_at(protocol, "min_samples") + " to " + string_at(protocol, "max_samples"));
  add_fact(facts, "time bound per benchmark (s)", string_at(protocol, "max_time_seconds"));
  add_fact(facts, "cache", string_at(protocol, "cache"));
  if (protocol.contains("target_rel_ci")) {
    add_fact(facts, "target relative CI half-width",
             protocol["target_rel_ci"].is_number() ? string_at(protocol, "target_rel_ci") : "off");
  }
  if (protocol.contains("min_time_seconds")) {
    add_fact(facts, "least span of the samples (s)",
             protocol["min_time_seconds"].is_number() ? string_at(protocol, "min_time_seconds") : "off");
  }
  add_fact(facts, "batch target (timer resolutions)", string_at(protocol, "batch_resolution_factor"));
  return facts;
}

const std::vector<std::string>& plain_missing_facts() {
  static const std::vector<std::string> facts = {
      "raw samples: each repetition's real_time serves as one sample, so n is the repetition count",
      "environment: only Google Benchmark's context (host, CPUs, library build) is known",
      "protocol: warm-up, sample counts, cache state and batching are unknown",
      "accuracy: no check against a reference",
      "memory: no peak memory",
      "throughput against a peak: no GFLOP/s, arithmetic intensity or fraction of peak",
      "Pareto analysis: no problem, variant or error to compare variants on",
      "checksum: the record is not sealed, so a change to it cannot be detected",
  };
  return facts;
}

}  // namespace gbx::tools::report_json

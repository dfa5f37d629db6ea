#include "record/record_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "record/checksum.h"
#include "record/json_parse.h"
#include "record/record_schema.h"

namespace gbx {

namespace {

[[noreturn]] void bad(const std::string& path, const std::string& what) { throw BadRecord(path + ": " + what); }

double seconds_per(const std::string& path, const std::string& where, const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  bad(path, where + ".time_unit is '" + unit + "', not ns, us, ms or s");
}

const nlohmann::json& member(const std::string& path, const nlohmann::json& object, const std::string& where,
                             const char* key, nlohmann::json::value_t type) {
  if (!object.contains(key)) bad(path, where + " has no '" + key + "'");
  const nlohmann::json& value = object[key];
  const bool ok = type == nlohmann::json::value_t::number_float ? value.is_number() : value.type() == type;
  if (!ok) bad(path, where + "." + key + " has the wrong type (" + value.type_name() + ")");
  return value;
}

// An optional field of a plain Google Benchmark entry or of a gbx object: its value, or fallback when
// absent; a wrong type is bad input rather than nlohmann's type_error.
std::string text_or(const std::string& path, const nlohmann::json& object, const std::string& where, const char* key) {
  if (!object.contains(key)) return "";
  if (!object[key].is_string()) bad(path, where + "." + key + " has the wrong type (" + object[key].type_name() + ")");
  return object[key].get<std::string>();
}

// A finite number at object[key], or absent (missing, not a number, not finite).
std::optional<double> number_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) return std::nullopt;
  const double value = object[key].get<double>();
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

// The larger of two values, absent when either is: a pooled benchmark keeps its worst repetition.
std::optional<double> worst(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return std::nullopt;
  return std::max(*a, *b);
}

// Why a repetition failed its accuracy check, in words.
std::string failure_text(const nlohmann::json& gbx) {
  // The run analysis words the failure as the accuracy_failed flag; its prefix repeats what the
  // listing already says.
  if (gbx.contains("flags") && gbx["flags"].is_array()) {
    for (const auto& flag : gbx["flags"]) {
      if (!flag.is_object() || flag.value("flag", "") != "accuracy_failed") continue;
      std::string message = flag.value("message", "");
      const std::string prefix = "ACCURACY FAILED: ";
      if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
      if (!message.empty()) return message;
    }
  }
  const nlohmann::json& accuracy = gbx["accuracy"];
  const auto error = number_at(accuracy, "rel_l2_error");
  const auto tolerance = number_at(accuracy, "tolerance");
  if (error && tolerance) {
    char text[96];
    std::snprintf(text, sizeof text, "rel L2 error %.3g > tolerance %.3g", *error, *tolerance);
    return text;
  }
  return "the accuracy check did not pass";
}

// Adds one repetition's Pareto facts to its benchmark's.
void add_pareto_facts(LoadedBenchmark& loaded, const nlohmann::json& gbx, bool first) {
  const nlohmann::json accuracy = gbx.value("accuracy", nlohmann::json());
  const std::optional<double> error = number_at(accuracy, "rel_l2_error");
  const bool failed = accuracy.is_object() && accuracy.contains("passed") && accuracy["passed"] == false;
  loaded.memory_kind = gbx.value("region", "") == "cpu" ? "host_peak_bytes" : "device_peak_bytes";
  const std::optional<double> memory = number_at(gbx.value("memory", nlohmann::json()), loaded.memory_kind.c_str());
  loaded.error = first ? error : worst(loaded.error, error);
  loaded.memory_bytes = first ? memory : worst(loaded.memory_bytes, memory);
  const nlohmann::json energy = gbx.value("energy", nlohmann::json());
  const char* counter = gbx.value("region", "") == "cpu" ? "cpu" : "gpu";
  const std::optional<double> joules =
      energy.is_object() ? number_at(energy.value(counter, nlohmann::json()), "joules_per_run") : std::nullopt;
  loaded.energy_joules = first ? joules : worst(loaded.energy_joules, joules);
  // Higher is better: a pooled benchmark keeps its lowest repetition, absent when any lacks one.
  const std::optional<double> at_bound =
      number_at(gbx.value("load", nlohmann::json()), "throughput_at_bound_per_second");
  if (first) {
    loaded.throughput_at_bound = at_bound;
  } else if (!loaded.throughput_at_bound || !at_bound) {
    loaded.throughput_at_bound.reset();
  } else {
    loaded.throughput_at_bound = std::min(*loaded.throughput_at_bound, *at_bound);
  }
  if (failed && !loaded.accuracy_failed) {
    loaded.accuracy_failed = true;
    loaded.failure = failure_text(gbx);
  }
}

bool flag_or_false(const std::string& path, const nlohmann::json& object, const std::string& where, const char* key) {
  if (!object.contains(key)) return false;
  if (!object[key].is_boolean()) bad(path, where + "." + key + " has the wrong type (" + object[key].type_name() + ")");
  return object[key].get<bool>();
}

}  // namespace

std::vector<ProcessGroup> read_process_groups(const std::string& path, const std::string& where,
                                              const nlohmann::json& gbx_entry, std::size_t sample_count) {
  if (!gbx_entry.contains("process_samples")) return {ProcessGroup{0, sample_count}};
  const std::string field = where + ".gbx.process_samples";
  const nlohmann::json& groups = gbx_entry["process_samples"];
  if (!groups.is_array()) bad(path, field + " is not an array");
  std::vector<ProcessGroup> result;
  std::size_t total = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const std::string item = field + "[" + std::to_string(i) + "]";
    if (!groups[i].is_object()) bad(path, item + " is not an object");
    ProcessGroup group;
    for (const char* key : {"process", "count"}) {
      if (!groups[i].contains(key) || !groups[i][key].is_number_unsigned()) {
        bad(path, item + "." + key + " is missing or not a non-negative integer");
      }
    }
    group.process = groups[i]["process"].get<std::size_t>();
    group.count = groups[i]["count"].get<std::size_t>();
    total += group.count;
    result.push_back(group);
  }
  if (total != sample_count) {
    bad(path,
        field + " counts " + std::to_string(total) + " samples, but gbx.samples holds " + std::to_string(sample_count));
  }
  return result;
}

nlohmann::json parse_record_file(const std::string& path) {
  try {
    return parse_json_strictly(read_json_file(path));
  } catch (const JsonFault& fault) {
    bad(path, fault.what());
  }
}

namespace {

LoadedRecord read_checked(nlohmann::json json, const std::string& path, SealRequirement seal_requirement,
                          const std::string* text);

}  // namespace

LoadedRecord load_record(const std::string& path) {
  std::string text;
  nlohmann::json json;
  try {
    text = read_json_file(path);
    json = parse_json_strictly(text);
  } catch (const JsonFault& fault) {
    bad(path, fault.what());
  }
  // The file's own text lets the seal be checked without serialising the record again.
  return read_checked(std::move(json), path, SealRequirement::intact, &text);
}

LoadedRecord read_record(nlohmann::json json, const std::string& path, SealRequirement seal_requirement) {
  return read_checked(std::move(json), path, seal_requirement, nullptr);
}

namespace {

LoadedRecord read_checked(nlohmann::json json, const std::string& path, SealRequirement seal_requirement,
                          const std::string* text) {
  LoadedRecord record;
  record.path = path;
  record.json = std::move(json);
  const nlohmann::json& j = record.json;
  if (!j.is_object()) bad(path, "the top level is not a JSON object");
  const auto& benchmarks = member(path, j, "the record", "benchmarks", nlohmann::json::value_t::array);
  record.has_gbx = j.contains("gbx");
  // A gbx record may hold no entry: every benchmark selected could not run here (gbx.not_run lists
  // them), or none was selected; plain Google Benchmark JSON without one says nothing.
  if (benchmarks.empty() && !record.has_gbx) bad(path, "the benchmarks array is empty");
  if (record.has_gbx) {
    const auto& gbx = member(path, j, "the record", "gbx", nlohmann::json::value_t::object);
    if (!gbx.contains("schema_version") || gbx["schema_version"] != nlohmann::json(1)) {
      bad(path, "gbx.schema_version is " + (gbx.contains("schema_version") ? gbx["schema_version"].dump() : "missing") +
                    "; this gbx reads version 1");
    }
  }

  std::map<std::string, std::size_t> index;
  std::vector<std::map<std::size_t, std::vector<double>>> by_process;      // per loaded benchmark
  std::vector<std::pair<std::size_t, const nlohmann::json*>> pareto_rows;  // (benchmark, its row's gbx)
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const std::string where = "benchmarks[" + std::to_string(i) + "]";
    const auto& b = benchmarks[i];
    if (!b.is_object()) bad(path, where + " is not an object");
    const std::string name = member(path, b, where, "name", nlohmann::json::value_t::string).get<std::string>();
    const std::string run_type = member(path, b, where, "run_type", nlohmann::json::value_t::string).get<std::string>();
    if (run_type != "iteration") continue;  // aggregates summarise what the repetitions already hold
    if (flag_or_false(path, b, where, "error_occurred")) continue;  // skipped or failed: nothing measured
    const double real_time = member(path, b, where, "real_time", nlohmann::json::value_t::number_float).get<double>();
    const std::string unit = member(path, b, where, "time_unit", nlohmann::json::value_t::string).get<std::string>();
    const double scale = seconds_per(path, where, unit);

    auto found = index.find(name);
    if (found == index.end()) {
      found = index.emplace(name, record.benchmarks.size()).first;
      record.benchmarks.push_back(LoadedBenchmark{});
      record.benchmarks.back().name = name;
      by_process.emplace_back();
    }
    LoadedBenchmark& loaded = record.benchmarks[found->second];
    auto& groups = by_process[found->second];
    if (!record.has_gbx || !b.contains("gbx")) {
      // Plain Google Benchmark JSON: each repetition's time is one sample, all from one process.
      if (!std::isfinite(real_time)) bad(path, where + ".real_time is not a finite number");
      loaded.samples.push_back(real_time * scale);
      groups[0].push_back(real_time * scale);
      continue;
    }
    const auto& g = member(path, b, where, "gbx", nlohmann::json::value_t::object);
    const auto& samples = member(path, g, where + ".gbx", "samples", nlohmann::json::value_t::array);
    loaded.samples.reserve(loaded.samples.size() + samples.size());
    for (std::size_t s = 0; s < samples.size(); ++s) {
      const double value = samples[s].is_number() ? samples[s].get<double>() : NAN;
      if (!std::isfinite(value)) bad(path, where + ".gbx.samples[" + std::to_string(s) + "] is not a finite number");
      loaded.samples.push_back(value);
    }
    std::size_t next = 0;
    for (const ProcessGroup& group : read_process_groups(path, where, g, samples.size())) {
      auto& into = groups[group.process];
      for (std::size_t s = 0; s < group.count; ++s) into.push_back(samples[next++].get<double>());
    }
    pareto_rows.emplace_back(found->second, &g);
    loaded.problem = text_or(path, g, where + ".gbx", "problem");
    loaded.variant = text_or(path, g, where + ".gbx", "variant");
    if (const auto axes = g.find("axes"); axes != g.end() && axes->is_object()) {
      loaded.axes = axes->dump();
      loaded.problem_axes = *axes;
      for (const auto& axis : g.value("variant_axes", nlohmann::json::array())) {
        if (axis.is_string()) loaded.problem_axes.erase(axis.get<std::string>());
      }
    }
    loaded.protocol["problem"] = loaded.problem;
    loaded.protocol["precision"] = text_or(path, g, where + ".gbx", "precision");
    loaded.protocol["region"] = text_or(path, g, where + ".gbx", "region");
    if (g.contains("measurement") && g["measurement"].is_object()) {
      loaded.protocol["timer"] = text_or(path, g["measurement"], where + ".gbx.measurement", "timer");
      loaded.protocol["cache"] = text_or(path, g["measurement"], where + ".gbx.measurement", "cache");
      const auto& m = g["measurement"];
      const bool known = m.contains("timer_resolution_seconds") && m["timer_resolution_seconds"].is_number();
      const double batch = m.contains("batch") && m["batch"].is_number() ? m["batch"].get<double>() : 1.0;
      if (known && batch >= 1.0) {
        loaded.resolution_seconds =
            std::max(loaded.resolution_seconds, m["timer_resolution_seconds"].get<double>() / batch);
      }
    }
  }
  for (std::size_t i = 0; i < record.benchmarks.size(); ++i) {
    for (auto& [process, samples] : by_process[i]) record.benchmarks[i].process_samples.push_back(std::move(samples));
  }
  // A gbx record whose benchmarks were all skipped (CUDA ones on a machine without a GPU) is a valid
  // record with nothing to analyse; plain Google Benchmark JSON without a measurement is not worth one.
  if (record.benchmarks.empty() && !record.has_gbx) {
    bad(path, "no benchmark has measurements (all are aggregates, skipped or failed)");
  }
  // After the checks above, so that their more specific messages come first; before the seal is
  // recomputed, so that a record sealed over bad content is still refused for the content, and a
  // structural fault is named as such rather than as the seal it also breaks.
  if (record.has_gbx && seal_requirement == SealRequirement::intact) {
    const SealCheck seal = text != nullptr ? check_seal(j, *text) : check_seal(j);
    if (seal.status == SealStatus::missing) bad(path, "gbx.checksum is missing: the record cannot be trusted");
    const std::string violation = schema_violation(j);
    if (!violation.empty()) bad(path, "not a valid gbx record (docs/gbx-record.schema.json): " + violation);
    if (seal.status == SealStatus::mismatch)
      bad(path, "checksum mismatch: the record was changed after it was written");
  } else if (record.has_gbx) {
    // A record being written is sealed after its Pareto section, and the seal is among the keys the
    // schema requires: it is checked with a seal of the right shape. Not with the real seal, whose
    // text the writer has yet to make valid UTF-8 (nlohmann's dump would throw).
    nlohmann::json as_sealed = j;
    as_sealed["gbx"]["checksum"] = {{"algorithm", "sha256"}, {"value", std::string(64, '0')}};
    const std::string violation = schema_violation(as_sealed);
    if (!violation.empty()) bad(path, "not a valid gbx record (docs/gbx-record.schema.json): " + violation);
  }
  // Once the record is known to be valid, so that these reads meet the schema's types.
  for (const auto& [position, g] : pareto_rows) {
    // Skipped repetitions and rows without a problem are no variant of any problem.
    if (!g->contains("problem") || g->value("skipped", false)) continue;
    LoadedBenchmark& loaded = record.benchmarks[position];
    add_pareto_facts(loaded, *g, !loaded.has_problem);
    loaded.has_problem = true;
  }
  return record;
}

}  // namespace

}  // namespace gbx

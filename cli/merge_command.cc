#include "cli/merge_command.h"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

#include <nlohmann/json.hpp>

#include "analysis/pareto.h"
#include "processes/shard.h"
#include "record/atomic_file.h"
#include "record/checksum.h"
#include "record/record_reader.h"
#include "writer/json_record.h"
#include "writer/record_finisher.h"

namespace gbx::tools {

namespace {

using nlohmann::json;

struct Shard {
  std::string path;
  json record;
  std::int64_t index = 0;
};

const json& at(const json& object, const json::json_pointer& pointer) {
  static const json missing;
  return object.contains(pointer) ? object.at(pointer) : missing;
}

// What must be the same in every shard: one build of one source, one protocol, one selection. Facts
// read per host at run time (OpenBLAS's core, cuBLAS's version) may differ and are kept per shard.
json build_identity(const json& record) {
  json identity;
  for (const char* pointer : {"/gbx/environment/source/commit", "/gbx/environment/source/dirty",
                              "/gbx/environment/source/dependency_lock_sha256", "/gbx/protocol", "/gbx/shard/count",
                              "/gbx/shard/selection_fingerprint", "/gbx/shard/plan/method"}) {
    identity[pointer] = at(record, json::json_pointer(pointer));
  }
  for (const char* key : {"compiler", "flags", "build_type", "cuda", "cuda_toolkit", "google_benchmark", "boost",
                          "nlohmann_json", "openssl", "openblas"}) {
    identity[std::string("/gbx/environment/build/") + key] =
        at(record, json::json_pointer(std::string("/gbx/environment/build/") + key));
  }
  return identity;
}

// The hardware that makes timings comparable: the GPU models, or the CPU model where there is no GPU.
std::string environment_group(const json& record) {
  std::vector<std::string> models;
  const json& gpus = at(record, "/gbx/environment/gpus"_json_pointer);
  if (gpus.is_array()) {
    for (const auto& gpu : gpus) {
      if (!gpu.is_object() || !gpu.contains("name") || !gpu["name"].is_string()) continue;
      // The driver's major version changes timings too; gbx compare checks it as well (docs/gating.md).
      const json driver = gpu.value("driver_version", json());
      const std::string major =
          driver.is_string() ? driver.get<std::string>().substr(0, driver.get<std::string>().find('.')) : "";
      models.push_back(gpu["name"].get<std::string>() + (major.empty() ? "" : " (driver " + major + ")"));
    }
  }
  std::sort(models.begin(), models.end());
  std::string group;
  for (const auto& model : models) group += (group.empty() ? "gpu: " : ", ") + model;
  if (!group.empty()) return group;
  const json& cpu = at(record, "/gbx/environment/host/cpu_model"_json_pointer);
  return "cpu: " + (cpu.is_string() ? cpu.get<std::string>() : std::string("unknown"));
}

std::string run_name(const json& row) {
  const json& name = row.contains("run_name") ? row["run_name"] : row.value("name", json());
  return name.is_string() ? name.get<std::string>() : std::string();
}

std::vector<Shard> read_shards(const std::vector<std::string>& paths) {
  std::vector<Shard> shards;
  for (const auto& path : paths) {
    Shard shard{path, load_record(path).json, 0};
    const json& section = at(shard.record, "/gbx/shard"_json_pointer);
    if (!section.is_object() || !section.contains("index") || !section.contains("benchmarks")) {
      throw BadRecord(path + ": not a shard record (no gbx.shard): run the bench binary with --gbx_shard=I/N");
    }
    shard.index = section["index"].get<std::int64_t>();
    shards.push_back(std::move(shard));
  }
  std::stable_sort(shards.begin(), shards.end(), [](const Shard& a, const Shard& b) { return a.index < b.index; });
  return shards;
}

void check_alike(const std::vector<Shard>& shards) {
  const json first = build_identity(shards.front().record);
  const std::string first_group = environment_group(shards.front().record);
  for (const auto& shard : shards) {
    const json identity = build_identity(shard.record);
    for (const auto& [pointer, value] : first.items()) {
      if (identity[pointer] != value) {
        throw BadRecord(shard.path + ": " + pointer + " is " + identity[pointer].dump() + " but " +
                        shards.front().path + " has " + value.dump() +
                        ": shards must come from one build, protocol and selection");
      }
    }
    const std::string group = environment_group(shard.record);
    if (group != first_group) {
      // NOLINTNEXTLINE(performance-inefficient-string-concatenation): the message is built once, on the way out
      throw BadRecord(shard.path + " ran on '" + group + "' but " + shards.front().path + " on '" + first_group +
                      "': merge each environment group on its own and compare group with group (docs/scale-out.md)");
    }
  }
}

struct Coverage {
  std::vector<std::string> problems;  // said to the user; empty when complete and disjoint
  std::vector<std::string> missing;   // benchmark names known to be missing
  std::vector<std::int64_t> missing_shards;
};

Coverage check_coverage(const std::vector<Shard>& shards) {
  Coverage coverage;
  const json& first = shards.front().record["gbx"]["shard"];
  const std::int64_t count = first["count"].get<std::int64_t>();
  std::map<std::int64_t, std::string> seen_shards;
  std::map<std::string, std::int64_t> assigned;
  std::vector<std::string> all_assigned;
  for (const auto& shard : shards) {
    if (!seen_shards.emplace(shard.index, shard.path).second) {
      coverage.problems.push_back("shard " + std::to_string(shard.index) +
                                  " is given twice: " + seen_shards[shard.index] + " and " + shard.path);
      continue;
    }
    std::set<std::string> ran;
    for (const auto& row : shard.record["benchmarks"]) ran.insert(run_name(row));
    // Benchmarks that could not run on the shard's machine (no CUDA device) are accounted for, apart.
    for (const auto& row : at(shard.record, "/gbx/not_run"_json_pointer)) ran.insert(row.value("name", ""));
    for (const auto& name : shard.record["gbx"]["shard"]["benchmarks"]) {
      const auto inserted = assigned.emplace(name.get<std::string>(), shard.index);
      if (!inserted.second) {
        coverage.problems.push_back("benchmark " + name.get<std::string>() + " is in shards " +
                                    std::to_string(inserted.first->second) + " and " + std::to_string(shard.index) +
                                    " (did every shard use the same --gbx_shard_plan?)");
        continue;
      }
      all_assigned.push_back(name);
      if (ran.count(name) == 0) {
        coverage.missing.push_back(name);
        coverage.problems.push_back("benchmark " + name.get<std::string>() + " of shard " +
                                    std::to_string(shard.index) + " (" + shard.path + ") did not run");
      }
    }
  }
  // A shard dealt no benchmark writes no record; its absence is only a fault when names are missing.
  const bool names_complete = selection_fingerprint(all_assigned) == first["selection_fingerprint"].get<std::string>();
  for (std::int64_t i = 0; i < count; ++i) {
    if (seen_shards.count(i) == 0 && !names_complete) coverage.missing_shards.push_back(i);
  }
  if (!names_complete) {
    const auto size = first["selection_size"].get<std::size_t>();
    std::string shards_text;
    for (auto i : coverage.missing_shards) shards_text += (shards_text.empty() ? "" : ", ") + std::to_string(i);
    coverage.problems.push_back(std::to_string(size > assigned.size() ? size - assigned.size() : 0) +
                                " of the selection's " + std::to_string(size) + " benchmarks are in no shard given" +
                                (shards_text.empty()
                                     ? std::string(" (the shards disagree on the selection)")
                                     : "; missing shard(s) of " + std::to_string(count) + ": " + shards_text));
  }
  return coverage;
}

json merged_record(const std::vector<Shard>& shards, const Coverage& coverage,
                   const std::vector<std::string>& command) {
  json merged = shards.front().record;
  json& top = merged["gbx"];
  top.erase("checksum");
  top.erase("shard");
  top.erase("processes");  // per shard, under merge.shards
  top.erase("invalid_utf8_replaced");
  top.erase("pareto");
  top["run_id"] = new_run_id();
  top["created_utc"] = utc_timestamp();
  top["command"] = command;
  json benchmarks = json::array();
  json not_run = json::array();
  json shard_list = json::array();
  bool interrupted = false;
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> families;  // (shard, family) -> merged
  std::set<std::int64_t> done;
  for (const auto& shard : shards) {
    if (!done.insert(shard.index).second) continue;  // given twice (--allow-partial): the first copy
    const json& gbx = shard.record["gbx"];
    interrupted = interrupted || gbx.value("interrupted", false);
    json entry = {{"index", shard.index},
                  {"run_id", gbx["run_id"]},
                  {"created_utc", gbx["created_utc"]},
                  {"command", gbx["command"]},
                  {"interrupted", gbx.value("interrupted", false)},
                  {"environment", gbx["environment"]},
                  {"file", shard.path}};
    if (gbx.contains("processes")) entry["processes"] = gbx["processes"];
    if (gbx.contains("invalid_utf8_replaced")) entry["invalid_utf8_replaced"] = gbx["invalid_utf8_replaced"];
    shard_list.push_back(std::move(entry));
    for (json row : at(shard.record, "/gbx/not_run"_json_pointer)) {
      row["shard"] = shard.index;
      not_run.push_back(std::move(row));
    }
    for (json row : shard.record["benchmarks"]) {
      // Google Benchmark numbers families within one run; a merged record numbers them anew.
      if (row.contains("family_index") && row["family_index"].is_number_integer()) {
        const auto key = std::make_pair(shard.index, row["family_index"].get<std::int64_t>());
        const auto found = families.emplace(key, static_cast<std::int64_t>(families.size())).first;
        row["family_index"] = found->second;
      }
      if (row.contains("gbx") && row["gbx"].is_object()) row["gbx"]["shard"] = shard.index;
      benchmarks.push_back(std::move(row));
    }
  }
  merged["benchmarks"] = std::move(benchmarks);
  top.erase("not_run");
  if (!not_run.empty()) top["not_run"] = std::move(not_run);
  top["interrupted"] = interrupted;
  const json& first = shards.front().record["gbx"]["shard"];
  top["merge"] = {{"count", first["count"]},
                  {"selection_fingerprint", first["selection_fingerprint"]},
                  {"complete", coverage.problems.empty()},
                  {"missing", coverage.missing},
                  {"missing_shards", coverage.missing_shards},
                  {"environment_group", environment_group(shards.front().record)},
                  {"shards", std::move(shard_list)}};
  return merged;
}

}  // namespace

int merge_command(const MergeOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<Shard> shards;
  try {
    shards = read_shards(options.inputs);
    check_alike(shards);
  } catch (const std::exception& error) {
    err << "gbx merge: " << error.what() << "\n";
    return 2;
  }
  const Coverage coverage = check_coverage(shards);
  for (const auto& problem : coverage.problems) err << "gbx merge: " << problem << "\n";
  if (!coverage.problems.empty() && !options.allow_partial) {
    err << "gbx merge: the shards are not complete and disjoint; nothing written (--allow-partial writes what "
           "is there)\n";
    return 2;
  }
  std::vector<std::string> command = {"gbx", "merge"};
  command.insert(command.end(), options.inputs.begin(), options.inputs.end());
  command.insert(command.end(), {"-o", options.output});
  if (options.allow_partial) command.push_back("--allow-partial");
  try {
    json merged = merged_record(shards, coverage, command);
    finish_record(merged, false, err, "gbx merge");
    write_record(merged, {options.output, "", std::nullopt, false}, out);
    out << "gbx merge: " << merged["benchmarks"].size() << " rows from " << merged["gbx"]["merge"]["shards"].size()
        << " shard(s) of " << merged["gbx"]["merge"]["count"] << " ("
        << merged["gbx"]["merge"]["environment_group"].get<std::string>() << ")"
        << (coverage.problems.empty() ? "" : ", PARTIAL") << " written to " << options.output << "\n";
  } catch (const std::exception& error) {
    err << "gbx merge: cannot write " << options.output << ": " << error.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace gbx::tools

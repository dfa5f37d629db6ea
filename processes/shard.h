#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gbx {

// Which shard of a sharded run this process is (docs/scale-out.md). Where it comes from, first found:
// --gbx_shard=I/N (or none), GBX_SHARD_INDEX with GBX_SHARD_COUNT, Slurm's SLURM_ARRAY_TASK_ID with
// SLURM_ARRAY_TASK_COUNT (offset by SLURM_ARRAY_TASK_MIN, divided by SLURM_ARRAY_TASK_STEP), and a
// Kubernetes Indexed Job's JOB_COMPLETION_INDEX with GBX_SHARD_COUNT.
struct ShardRequest {
  bool active = false;
  std::int64_t index = 0;
  std::int64_t count = 1;
  std::string source;           // "--gbx_shard", "GBX_SHARD_INDEX", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"
  std::string plan_path;        // --gbx_shard_plan: a previous record whose costs balance the shards
  bool explicitly_off = false;  // --gbx_shard=none
};

using EnvironmentLookup = std::function<const char*(const char*)>;

// Takes --gbx_shard and --gbx_shard_plan out of args and reads the environment. Throws FlagError
// naming the flag or variable on a bad value.
ShardRequest take_shard_request(std::vector<std::string>& args, const EnvironmentLookup& lookup);

// SHA-256 of the sorted names, one per line: the same for every shard of one selection.
std::string selection_fingerprint(std::vector<std::string> names);

// Expected seconds per benchmark name, read from a previous record: each iteration row's
// gbx.measurement.wall_seconds, else real_time × samples; summed over repetitions. Throws FlagError
// naming --gbx_shard_plan and the file when it cannot be read as a record.
std::map<std::string, double> costs_from_record(const std::string& path);

// The shard (0..count-1) of each name, in the order given. Deterministic: without costs the names
// sorted by a stable hash are dealt out in turn (shard sizes differ by one at most); with costs,
// longest expected time first to the least loaded shard (LPT), names missing from the plan costing
// the median of those present.
std::vector<std::int64_t> assign_shards(const std::vector<std::string>& names, std::int64_t count,
                                        const std::map<std::string, double>* costs);

// A --benchmark_filter that selects exactly the benchmark called `name`.
std::string exact_filter(const std::string& name);

// The regular expression that selects exactly these names (Google Benchmark's --benchmark_filter).
std::string exact_names_filter(const std::vector<std::string>& names);

// What run_main needs from sharding: the argv to run with and the record's gbx.shard section.
struct ShardSelection {
  std::vector<std::string> command;          // shard flags removed; with a shard, its filter appended
  nlohmann::json record = nlohmann::json();  // gbx.shard, null when not sharded
  bool empty = false;                        // this shard was assigned no benchmark
};

// Resolves the shard of this bench process (argv in `command`), lists the full selection through a
// child of `binary`, and narrows the run to this shard's benchmarks. Sets GBX_SHARD_RESOLVED in this
// process's environment so that its children never shard again. Throws FlagError on bad input.
ShardSelection select_shard(const std::string& binary, const std::vector<std::string>& command);

}  // namespace gbx

#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace gbx::tools {

struct SlurmOptions {
  std::int64_t shards = 0;     // the job array's size: one task per shard
  std::string partition;       // empty: the cluster's default partition
  std::string gres = "gpu:1";  // empty (--cpu-only): no --gres line, for CPU suites
  bool exclusive = true;       // a whole node per task, so that no other job shares its caches or GPU
  std::string time_limit = "01:00:00";
  std::string output_dir = "gbx-shards";
  std::string job_name = "gbx";
  std::string plan;                // --gbx_shard_plan for every task: balance by a previous record's costs
  bool dry_run = false;            // print the script; submit nothing
  bool wait = false;               // wait for every task, then merge into output_dir/merged.json
  std::vector<std::string> bench;  // the bench binary and its flags
};

// The sbatch script of a job array of `shards` tasks, each running shard SLURM_ARRAY_TASK_ID of the
// bench binary into output_dir/shard-<index>.json and its exit status into output_dir/shard-<index>.exit.
std::string sbatch_script(const SlurmOptions& options);

// `gbx slurm` (docs/scale-out.md): writes output_dir/gbx-shards.sbatch and submits it with sbatch, or
// prints it with --dry-run. With --wait, once every task has ended: names each shard whose task failed
// or wrote no record, and merges the records there are (gbx merge, --allow-partial when some are
// missing) into output_dir/merged.json. 0 submitted (or all shards merged), 1 a shard failed (the rest
// are merged), 2 bad input or sbatch failed.
int slurm_command(const SlurmOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace gbx::tools {

struct MergeOptions {
  std::vector<std::string> inputs;  // shard records (gbx.shard)
  std::string output;               // the merged record, written atomically
  bool allow_partial = false;       // write what is there even when shards or benchmarks are missing
};

// `gbx merge SHARD.json... -o MERGED.json` (docs/scale-out.md): checks that the shards come from one
// build, protocol and selection and one environment group (the same GPU models, or CPU model without
// GPUs), that together they are complete and disjoint, and writes one sealed record whose entries
// each say their shard (gbx.shard) and whose gbx.merge.shards keep each shard's environment.
// 0 written; 2 bad input, or missing or duplicated benchmarks without --allow-partial.
int merge_command(const MergeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

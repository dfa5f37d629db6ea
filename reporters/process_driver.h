#pragma once

#include <string>
#include <vector>

#include "extensions/protocol.h"
#include "record/json_record.h"

namespace gbx {

// Where a run's results go (Google Benchmark's output flags, and --gbx_out_dir's file).
struct RunOutputs {
  std::string format = "console";   // --benchmark_format: console, csv or json
  std::string out;                  // --benchmark_out, empty for none
  std::string out_format = "json";  // --benchmark_out_format
  bool display_aggregates_only = false;
  bool report_aggregates_only = false;
  std::string record_path;  // from --gbx_out_dir, empty for none
};

// The parent of a --gbx_processes run (after benchmark::Initialize): lists the selection, runs it in
// K children of this executable, merges what they report into one record (record/process_merge.h),
// shows it and writes it. Exit codes as run_main's.
int run_isolated(const std::vector<std::string>& command, const CommandLine& line, const RunOutputs& outputs,
                 const RecordHeader& header_at_start);

}  // namespace gbx

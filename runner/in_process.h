#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/protocol.h"
#include "writer/json_record.h"

namespace gbx {

// Where a run's results go: Google Benchmark's output flags, which gbx handles itself so that the
// record it writes is ours, and --gbx_out_dir's file.
struct RunOutputs {
  std::string out;                  // --benchmark_out, empty for none
  std::string out_format = "json";  // --benchmark_out_format
  std::string format = "console";   // --benchmark_format: console, csv or json
  bool list_tests = false;          // --benchmark_list_tests
  // Google Benchmark would hide the repetitions, and so every sample, from the record too: gbx
  // applies these to what is shown and printed, and the record keeps everything.
  bool display_aggregates_only = false;  // --benchmark_display_aggregates_only
  bool report_aggregates_only = false;   // --benchmark_report_aggregates_only
  bool help = false;
  std::vector<std::string> for_google_benchmark;             // every flag that Google Benchmark is given
  std::string record_path;                                   // from --gbx_out_dir, empty for none
  std::vector<std::pair<std::string, std::string>> context;  // --benchmark_context, added once
};

// The run of the selected benchmarks inside this process (after benchmark::Initialize and the active
// protocol are set): Google Benchmark runs them through the gbx reporter, the record is built,
// finished (writer/record_finisher.h) and written where `output` says, and the console shows the
// table. Exit codes as run_main's (main/driver.h); 128 + the signal when interrupted.
int run_in_process(const std::vector<std::string>& command, const detail::CommandLine& line, const RunOutputs& output,
                   const RecordHeader& header_at_start);

}  // namespace gbx

#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "model/sample_channel.h"
#include "writer/json_record.h"

namespace gbx {

// One row a child process reported: Google Benchmark's JSON entry and the fixture's record behind it.
struct ProcessRow {
  nlohmann::json benchmark;
  std::optional<detail::RunRecord> record;
};

// One launch of a child. A process whose child died is continued by a new launch with the same index.
struct ProcessLaunch {
  std::int64_t process = 0;  // 0..K-1
  std::int64_t pid = 0;
  std::string started_utc;
  std::vector<std::string> order;  // the benchmarks asked of this launch, in its order
  std::optional<int> exit_code;    // when it exited
  std::string signal;              // when a signal ended it, e.g. "SIGSEGV"
  bool timed_out = false;          // killed by the parent: a benchmark ran past --gbx_benchmark_timeout
};

// What one process did with one selected benchmark.
struct ProcessOutcome {
  std::int64_t process = 0;
  std::int64_t pid = 0;
  std::string started_utc;
  std::int64_t position = 0;     // in that process's order
  std::vector<ProcessRow> rows;  // its repetitions, then Google Benchmark's aggregates
  std::string failure;           // non-empty: the process died while running it, and why
};

// Everything the processes of one run reported, before merging.
struct ProcessRunResults {
  std::vector<std::string> names;                     // the selection, in Google Benchmark's order
  std::vector<std::vector<ProcessOutcome>> outcomes;  // per name, in process order; absent where none ran it
  std::vector<ProcessLaunch> launches;
  std::int64_t processes = 0;
  std::uint64_t order_seed = 0;
};

// One entry of the merged record: Google Benchmark's row, the merged fixture record, its statistics,
// and how its samples split into processes (empty for aggregates and failures).
struct MergedRow {
  nlohmann::json benchmark;
  std::optional<detail::RunRecord> record;
  std::optional<RunAnalysis> analysis;
  nlohmann::json process_samples;  // the `gbx.process_samples` array, or null
};

// Merges each benchmark's rows across processes: the samples are concatenated in process order and
// analysed as one; `real_time` and `cpu_time` become the median of the processes' values; aggregates
// are recomputed over the merged repetitions. A benchmark that a process died running is failed.
std::vector<MergedRow> merge_process_rows(const ProcessRunResults& results, const AnalysisOptions& options);

// The sealable record: build_record over the merged rows, plus `gbx.processes` and each entry's
// `gbx.process_samples`. `context` is Google Benchmark's context object.
nlohmann::json build_process_record(const ProcessRunResults& results, const std::vector<MergedRow>& rows,
                                    const nlohmann::json& context, const RecordHeader& header);

// The `gbx.processes` object.
nlohmann::json processes_json(const ProcessRunResults& results);

// Whether any merged benchmark failed (a fault, an error, or an accuracy check).
bool any_failed(const std::vector<MergedRow>& rows);

}  // namespace gbx

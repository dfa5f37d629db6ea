#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "report/export_metrics.h"

// Conbench's benchmark results (the body of POST /api/benchmark-results, conbench's
// _BenchmarkResultCreateSchema), one JSON array of them per file. Conbench summarises the raw `data`
// itself and knows five units (B, B/s, s, ns, i/s, its conbench/units.py), so:
// - latency: unit s, `data` the samples, or with two processes or more each process's median (the
//   unit of replication); gbx's own estimate and interval in optional_benchmark_info.gbx;
// - byte rate (B/s), FLOP rate (i/s, as Google Benchmark's items_per_second holds FLOP/s for a gbx
//   benchmark) and a plain benchmark's item rate (i/s): `data` the work per run over each latency datum;
// - peak memory: unit B, `data` the one peak;
// - energy, accuracy error and the user counters ({name: value}), which have no Conbench unit, ride in
//   the latency result's optional_benchmark_info.gbx, which Conbench keeps with the result without
//   making it part of the case (a counter in tags or context would split the history at each value).
// Each result's tags are {name, metric}, `metric` telling the results of one benchmark apart.
// machine_info is the record's environment; an integer fact the record lacks is 0, as Conbench's own
// client (benchadapt's machine_info) writes it, since the schema requires every one.

namespace gbx::tools {

struct ConbenchOptions {
  std::string repository;  // github.repository: https://github.com/ORG/REPO (the schema requires it)
  std::string run_reason;  // optional: "commit", "pull-request", ...
};

// Throws ExportError when a run has no date (Conbench requires a timestamp).
nlohmann::json conbench_results(const std::vector<ExportRun>& runs, const ConbenchOptions& options);

}  // namespace gbx::tools

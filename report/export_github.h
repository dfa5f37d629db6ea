#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "report/export_metrics.h"

// github-action-benchmark's custom tools (its src/extract.ts: an array of {name, value, unit, range?,
// extra?}). The action takes one direction per file, so the export is two files: one for
// `tool: customSmallerIsBetter` (latency, energy, error, memory) and one for `customBiggerIsBetter`
// (the rates and the user counters). Each benchmark and metric is one entry named
// "<benchmark> - <metric>", since the action draws one chart per name; each user counter one named
// "<benchmark> <counter>", with unit "" (its unit is its author's). `range` is "± h", the larger half-width of the
// interval (the action reads only a symmetric range, and rescales it with the unit); the interval itself, the
// estimate's kind, the testbed and the commit are in `extra`.

namespace gbx::tools {

struct GithubBenchmarkFiles {
  nlohmann::json smaller_is_better = nlohmann::json::array();
  nlohmann::json bigger_is_better = nlohmann::json::array();
};

// Throws ExportError when the runs disagree on machine or commit, or repeat a benchmark, or when two
// entries would have one name.
GithubBenchmarkFiles github_action_benchmark(const std::vector<ExportRun>& runs);

}  // namespace gbx::tools

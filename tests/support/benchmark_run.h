#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/run_record.h"
#include "reporters/gbx_reporter.h"
#include "writer/json_record.h"

namespace gbx_test {

// What one in-process RunSpecifiedBenchmarks call gave the gbx reporter.
struct BenchmarkRun {
  std::size_t matched = 0;    // benchmarks the filter selected
  nlohmann::json benchmarks;  // Google Benchmark's entries (patched), in reporting order
  std::vector<std::optional<gbx::detail::RunRecord>> entries;  // entries[i]: the record behind benchmarks[i]
  bool any_failed = false;
};

// Runs the benchmarks that match filter through a GbxReporter with no display, as the driver does.
inline BenchmarkRun run_benchmarks(const std::string& filter) {
  gbx::GbxReporter reporter(nullptr, nullptr);
  BenchmarkRun result;
  result.matched = benchmark::RunSpecifiedBenchmarks(&reporter, filter);
  if (result.matched == 0) return result;  // Google Benchmark reports nothing then
  const auto json = nlohmann::json::parse(gbx::replace_non_finite_with_null(reporter.google_benchmark_json()));
  result.benchmarks = json.at("benchmarks");
  result.entries = reporter.entries();
  result.any_failed = reporter.any_failed();
  return result;
}

}  // namespace gbx_test

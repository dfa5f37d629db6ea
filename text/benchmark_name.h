#pragma once

#include <string>

// The one name a benchmark is shown by: the console's table, `gbx compare`, `gbx report`, `gbx export`
// and `gbx ab` all call shown_benchmark_name, so that a name copied from any of them selects that
// benchmark with --benchmark_filter (docs/flags.md).
namespace gbx {

// What every gbx benchmark's Google Benchmark name ends in: one iteration per repetition, timed by
// gbx (register_fixture sets both). It says nothing about the benchmark, so it is not shown.
extern const char* const kGbxNameSuffix;

// Google Benchmark's name (the record's benchmarks[].name) less a trailing kGbxNameSuffix:
// "saxpy/loop/n:4096/a:2/iterations:1/manual_time" -> "saxpy/loop/n:4096/a:2". An aggregate row keeps
// Google Benchmark's statistic after it: ".../n:8/iterations:1/manual_time_mean" -> ".../n:8_mean".
// Any other name, a plain Google Benchmark one ("BM_copy/4096", "BM_manual/n:2048/manual_time")
// included, is shown as it is.
std::string shown_benchmark_name(const std::string& google_benchmark_name);

}  // namespace gbx

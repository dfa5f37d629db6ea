#pragma once

#include <benchmark/benchmark.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gbx {

// Google Benchmark's own flags under gbx's protocol, where each gbx benchmark is one Google Benchmark
// iteration per repetition that samples by gbx's rules. Every flag either works or is refused;
// none is accepted and then ignored (README, "Google Benchmark's flags"). Values come from the
// command line or, as Google Benchmark reads them, from the environment (BENCHMARK_MIN_TIME...).
struct GoogleBenchmarkFlags {
  // --benchmark_time_unit: the unit of every gbx benchmark's real_time and cpu_time in the record
  // and in Google Benchmark's outputs, overriding the unit the benchmark registered.
  std::optional<benchmark::TimeUnit> time_unit;
};

// Checks Google Benchmark's flags among args (argv without argv[0] and the --gbx_* flags). Throws
// FlagError naming the flag and, for one gbx replaces, gbx's own flag:
// --benchmark_dry_run, --benchmark_perf_counters, a true
// --benchmark_counters_tabular or --benchmark_color; a bad --benchmark_time_unit or an invalid
// regular expression in --benchmark_filter.
GoogleBenchmarkFlags check_google_benchmark_flags(const std::vector<std::string>& args);

// Google Benchmark's own printer for --benchmark_format or --benchmark_out_format: console or csv;
// null for json, where gbx writes the record itself.
std::unique_ptr<benchmark::BenchmarkReporter> google_benchmark_printer(const std::string& format);

// Why the selection is empty, naming the filter (Google Benchmark's, once it has parsed its flags).
std::string no_benchmark_matched();

}  // namespace gbx

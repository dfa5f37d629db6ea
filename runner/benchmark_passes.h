#pragma once

#include <benchmark/benchmark.h>

#include <ostream>
#include <string>
#include <vector>

namespace gbx {

// Runs the benchmarks that spec (Google Benchmark's filter) selects through reporter, as
// RunSpecifiedBenchmarks does, with each kind under its own repetitions: gbx's benchmarks take the
// user's --benchmark_repetitions, plain ones the plain layout's (reporters/plain_protocol.h), which
// they take their samples from. Google Benchmark reads its flags once per pass, so consecutive
// instances of one kind run in one pass, and the order stays Google Benchmark's. reporter sees one
// context and one Finalize. Returns the number of instances run.
std::size_t run_benchmarks(benchmark::BenchmarkReporter& reporter, const std::string& spec);

// --benchmark_min_time and --benchmark_min_warmup_time (args, or the environment) reach plain
// benchmarks only: throws detail::FlagError when the selection (spec) has none, naming the flag and
// gbx's own; writes a note to `note` when it has gbx benchmarks too.
void check_plain_only_flags(const std::vector<std::string>& args, const std::string& spec, std::ostream& note);

// The instance names spec selects, as --benchmark_list_tests prints them.
std::vector<std::string> list_instances(const std::string& spec);

}  // namespace gbx

#pragma once

#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <vector>

#include "model/sample_channel.h"

namespace gbx {

// --benchmark_time_unit: the unit every patched run (repetition or aggregate) reports its times in,
// whatever unit its benchmark registered; none: its own. Set once, before the benchmarks run.
void set_reported_time_unit(std::optional<benchmark::TimeUnit> unit);
// Gives run that unit, when one was set; its times stay in seconds.
void apply_reported_time_unit(benchmark::BenchmarkReporter::Run& run);

// Google Benchmark's own aggregates (mean, median, stddev, cv) over values, as it defines them;
// nothing for another name.
std::optional<double> standard_statistic(const std::string& name, const std::vector<double>& values);

// Rewrites a repetition's run with what its fixture measured: the label becomes the problem name,
// cpu_time becomes the process CPU time per run while sampling (Google Benchmark would report the
// whole measurement's), and the counters `samples` and `batch` are added.
void patch_repetition(benchmark::BenchmarkReporter::Run& run, const detail::RunRecord& record);

// Recomputes an aggregate row (mean, median, stddev, cv, ...) of CPU time from the repetitions'
// records, since Google Benchmark computed it from unpatched values; the label becomes the problem.
void patch_aggregate(benchmark::BenchmarkReporter::Run& run, const std::vector<detail::RunRecord>& repetitions);

// Patches every repetition whose label names a record in the channel; aggregates are left alone.
void patch_runs(std::vector<benchmark::BenchmarkReporter::Run>& runs, const SampleChannel& channel);

}  // namespace gbx

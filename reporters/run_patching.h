#pragma once

#include <benchmark/benchmark.h>

#include <vector>

#include "extensions/sample_channel.h"

namespace gbx {

// Rewrites Google Benchmark's runs with what the fixtures measured: the label becomes the problem
// name, cpu_time becomes the process CPU time per run inside the timed regions (Google Benchmark
// would report the whole measurement's), and each repetition gains `samples` and `batch` counters.
// Aggregates recompute their CPU statistics from the patched repetitions.
void patch_runs(std::vector<benchmark::BenchmarkReporter::Run>& runs, const SampleChannel& channel);

}  // namespace gbx

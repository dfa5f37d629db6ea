#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/protocol.h"

namespace gbx {

// How gbx runs a plain Google Benchmark benchmark (one registered with BENCHMARK() and friends,
// not through gbx): Google Benchmark's own loop, as many short repetitions, each one a sample.
// Google Benchmark runs every repetition of an instance at the iteration count its first one
// found, so the samples are alike; the first `warmup` repetitions are discarded.
struct PlainLayout {
  std::int64_t warmup = 1;            // leading repetitions discarded as warm-up
  std::int64_t samples = 30;          // repetitions per repetition the user asked for, one sample each
  std::int64_t groups = 1;            // the user's --benchmark_repetitions
  std::string per_sample_min_time;    // what each repetition runs for, as passed to Google Benchmark
  std::string min_warmup_time = "0";  // the user's --benchmark_min_warmup_time, for plain benchmarks only
  std::int64_t total() const { return warmup + samples * groups; }
};

// Google Benchmark's arguments as gbx passes them on, and the layout they give plain benchmarks.
struct PlainPlan {
  std::vector<std::string> args;
  PlainLayout layout;
  // --benchmark_context's pairs, for benchmark::AddCustomContext once Google Benchmark is initialised:
  // gbx initialises it again for each pass (runner/benchmark_passes.h), and Google Benchmark adds
  // its flag's pairs again each time, warning that each one exists already.
  std::vector<std::pair<std::string, std::string>> context;
};

// The value the user gave Google Benchmark's --FLAG (flag without the dashes): the last one on the
// command line, else its environment variable (BENCHMARK_FLAG, as Google Benchmark reads it), with
// how it was given ("--flag=v", or "BENCHMARK_FLAG=v (in the environment)").
std::optional<std::pair<std::string, std::string>> given_flag(const std::vector<std::string>& args,
                                                              const std::string& flag);

// Reads the user's --benchmark_repetitions=R and --benchmark_min_time=T (or their environment
// variables) into a layout of one warm-up repetition (none with --gbx_warmup=0) and R groups of
// protocol.min_samples repetitions, each running T / min_samples (T defaults to Google Benchmark's
// 0.5 s, so a plain benchmark takes about as long as without gbx); an iteration count (`100x`)
// applies to every repetition as given. The arguments returned replace --benchmark_min_time by the
// per-sample time (gbx's benchmarks set their own iteration count, so it does not reach them), and
// leave out --benchmark_min_warmup_time, which runner/benchmark_passes.h gives plain benchmarks only,
// and --benchmark_{display,report}_aggregates_only, which the reporter applies itself (Google
// Benchmark would hide the repetitions that are the samples).
// Throws detail::FlagError for a value Google Benchmark could not use, a --benchmark_context among them.
PlainPlan plan_plain_runs(const std::vector<std::string>& args, const detail::Protocol& protocol);

// Whether this Google Benchmark reads --benchmark_min_time with a unit, and iteration counts
// (`100x`): from 1.8 on.
bool google_benchmark_takes_iteration_counts();

// The layout of this process's run, read by the reporter.
void set_plain_layout(const PlainLayout& layout);
const PlainLayout& plain_layout();

}  // namespace gbx

// Plain Google Benchmark functions, as a project that adopts gbx already has them: they stay as they
// are and run under gbx's main() beside gbx's own benchmarks.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <vector>

static void plain_accumulate(benchmark::State& state) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(state.range(0)), 3);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::accumulate(values.begin(), values.end(), std::int64_t{0}));
  }
}
BENCHMARK(plain_accumulate)->Arg(1024);

// Timed by hand, with a counter of its own.
static void plain_manual(benchmark::State& state) {
  std::vector<double> values(256, 1.5);
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(std::accumulate(values.begin(), values.end(), 0.0));
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  state.counters["elements"] = static_cast<double>(values.size());
}
BENCHMARK(plain_manual)->UseManualTime();

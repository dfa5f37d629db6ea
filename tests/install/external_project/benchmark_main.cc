// A Google Benchmark file as it was before gbx: its own BENCHMARK_MAIN(). Linked with gbx::main it has
// two main()s, and the link must fail naming gbx's (gbx_main.cc), never run one of them silently.
#include <benchmark/benchmark.h>

static void plain_only(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
}
BENCHMARK(plain_only);

BENCHMARK_MAIN();

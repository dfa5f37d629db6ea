// A bench binary as a user who already has Google Benchmark suites writes one: plain benchmarks in
// each of Google Benchmark's registration forms, beside one gbx benchmark, linked with gbx::main.
// tests/plain/plain_test.sh runs it.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include <gbx/gbx.h>

static void BM_copy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<char> from(n, 'x');
  std::vector<char> to(n);
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), n);
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_copy)->Arg(4096)->Arg(65536);

// Manual time, as a user timing a region of each iteration does, with a counter of its own.
static void BM_manual(benchmark::State& state) {
  std::vector<double> values(static_cast<std::size_t>(state.range(0)), 1.0);
  double sum = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    sum += std::accumulate(values.begin(), values.end(), 0.0);
    benchmark::DoNotOptimize(sum);
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
  }
  state.counters["elements"] = static_cast<double>(values.size());
}
BENCHMARK(BM_manual)->ArgName("n")->Arg(2048)->UseManualTime();

class Vectors : public benchmark::Fixture {
 public:
  void SetUp(const benchmark::State& state) override { data.assign(static_cast<std::size_t>(state.range(0)), 2); }
  void TearDown(const benchmark::State&) override { data.clear(); }
  std::vector<int> data;
};
BENCHMARK_DEFINE_F(Vectors, sum)(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(std::accumulate(data.begin(), data.end(), 0));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
  state.counters["ints"] = static_cast<double>(data.size());
}
BENCHMARK_REGISTER_F(Vectors, sum)->Arg(1024);

template <class T>
static void BM_fill(benchmark::State& state) {
  std::vector<T> values(256);
  for (auto _ : state) {
    std::fill(values.begin(), values.end(), T(1));
    benchmark::DoNotOptimize(values.data());
  }
}
BENCHMARK_TEMPLATE(BM_fill, float);

static void BM_string(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    std::string copy = text;
    benchmark::DoNotOptimize(copy.data());
  }
}
BENCHMARK_CAPTURE(BM_string, short_text, std::string("gbx"));

// A gbx benchmark beside them.
static void scale(gbx::State& state) {
  const auto n = state.get_int("n");
  auto &x = state.host_array<float>(n), &y = state.host_array<float>(n);
  state.fill_random(x);
  state.declare_bytes_per_run(8.0 * static_cast<double>(n));
  state.exec([&] {
    for (std::int64_t i = 0; i < n; ++i) y[i] = 1.5f * x[i];
  });
}
GBX_BENCH(scale, "scale/loop")->pow2_axis("n", 10, 10, 1);

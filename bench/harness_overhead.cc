// What gbx's harness costs: one short CPU kernel timed by a plain Google Benchmark loop, by a gbx
// fixture (the class form) and by the short form, side by side in one run, with the medians and the
// ratios to the plain loop.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include <gbx/gbx.h>

#include "kernels/reduce.h"
#include "model/protocol.h"
#include "reporters/gbx_reporter.h"
#include "reporters/run_error.h"
#include "stats/statistics.h"

namespace {

constexpr std::size_t kCount = 1024;
constexpr int kRepetitions = 30;

std::vector<float>& shared_input() {
  static std::vector<float> input = [] {
    std::vector<float> values(kCount);
    for (std::size_t i = 0; i < kCount; ++i) values[i] = static_cast<float>(i % 7) * 0.25f - 0.5f;
    return values;
  }();
  return input;
}

void plain_loop(benchmark::State& state) {
  const auto& input = shared_input();
  // NOLINTNEXTLINE(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop idiom; _ is never read
  for (auto _ : state) {
    float sum = gbx::kernels::reduce_naive(input.data(), input.size());
    benchmark::DoNotOptimize(sum);
  }
}

class GbxSum : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { declare_problem("reduce/n=" + std::to_string(kCount)); }
  void run() override {
    const auto& input = shared_input();
    float sum = gbx::kernels::reduce_naive(input.data(), input.size());
    benchmark::DoNotOptimize(sum);
  }
};

void short_form_sum(gbx::State& state) {
  const auto& input = shared_input();
  state.declare_problem("reduce/n=" + std::to_string(kCount));
  state.exec([&] {
    float sum = gbx::kernels::reduce_naive(input.data(), input.size());
    benchmark::DoNotOptimize(sum);
  });
}
GBX_BENCH(short_form_sum, "overhead/gbx_short_form");

// Keeps the plain loop's per-repetition times, which no fixture record holds.
class CollectingReporter : public gbx::GbxReporter {
 public:
  using gbx::GbxReporter::GbxReporter;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      if (run.run_type == Run::RT_Iteration && !gbx::run_error(run) && run.iterations > 0 &&
          run.run_name.function_name == "overhead/plain_loop") {
        plain_seconds.push_back(run.real_accumulated_time / static_cast<double>(run.iterations));
      }
    }
    gbx::GbxReporter::ReportRuns(runs);
  }
  std::vector<double> plain_seconds;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  gbx::Protocol protocol;
  protocol.min_samples = kRepetitions;
  gbx::set_active_protocol(protocol);

  benchmark::RegisterBenchmark("overhead/plain_loop", plain_loop)->Repetitions(kRepetitions);
  gbx::register_fixture<GbxSum>("overhead", "gbx_fixture");
  gbx::register_short_benchmarks({});

  CollectingReporter reporter(benchmark::CreateDefaultDisplayReporter(), nullptr);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  const std::vector<double>& plain_seconds = reporter.plain_seconds;
  if (plain_seconds.empty()) {
    std::fprintf(stderr, "harness_overhead: the plain loop did not run (check --benchmark_filter)\n");
    return 1;
  }
  const double plain = *gbx::median(plain_seconds);
  std::printf("\nharness overhead, kernel: naive sum of %zu floats\n", kCount);
  std::printf("  plain Google Benchmark loop: median %.4g ns over %zu repetitions\n", plain * 1e9,
              plain_seconds.size());
  // Like for like: a plain repetition's time is a mean over its iterations, so it carries every
  // interrupt and preemption that struck it, while gbx's median of short samples leaves them out. The
  // ratio of means compares the harnesses; the ratio of gbx's median to the plain mean adds the
  // difference between the two statistics on this machine.
  const auto mean = [](const std::vector<double>& values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  };
  const double plain_mean = mean(plain_seconds);
  std::printf("  plain loop: mean %.4g ns\n", plain_mean * 1e9);
  for (const auto& record : gbx::SampleChannel::global().records()) {
    if (record.measurement.samples.empty()) continue;
    const double gbx_median = *gbx::median(record.measurement.samples);
    const double gbx_mean = mean(record.measurement.samples);
    std::printf(
        "  %-28s median %.4g ns, mean %.4g ns over %zu samples (batch %lld); ratio to plain: of means %.3f, "
        "median to mean %.3f\n",
        (record.benchmark + ":").c_str(), gbx_median * 1e9, gbx_mean * 1e9, record.measurement.samples.size(),
        static_cast<long long>(record.measurement.batch), gbx_mean / plain_mean, gbx_median / plain);
  }
  return 0;
}

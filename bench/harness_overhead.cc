// What gbx's harness costs: one short CPU kernel timed by a plain Google Benchmark loop and by a
// gbx fixture, side by side in one run, with both medians and their ratio.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "extensions/fixture.h"
#include "model/protocol.h"
#include "kernels/reduce.h"
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

  CollectingReporter reporter(benchmark::CreateDefaultDisplayReporter(), nullptr);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  const std::vector<double>& plain_seconds = reporter.plain_seconds;
  std::vector<double> gbx_seconds;
  std::int64_t batch = 0;
  for (const auto& record : gbx::SampleChannel::global().records()) {
    gbx_seconds.insert(gbx_seconds.end(), record.measurement.samples.begin(), record.measurement.samples.end());
    batch = record.measurement.batch;
  }
  if (plain_seconds.empty() || gbx_seconds.empty()) {
    std::fprintf(stderr, "harness_overhead: a side did not run (check --benchmark_filter)\n");
    return 1;
  }
  const double plain = *gbx::median(plain_seconds);
  const double fixture = *gbx::median(gbx_seconds);
  std::printf("\nharness overhead, kernel: naive sum of %zu floats\n", kCount);
  std::printf("  plain Google Benchmark loop: median %.4g ns over %zu repetitions\n", plain * 1e9,
              plain_seconds.size());
  std::printf("  gbx fixture:                 median %.4g ns over %zu samples (batch %lld)\n", fixture * 1e9,
              gbx_seconds.size(), static_cast<long long>(batch));
  std::printf("  ratio gbx / plain:           %.3f\n", fixture / plain);
  return 0;
}

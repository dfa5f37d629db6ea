// What gbx's harness costs: one short CPU kernel timed by a plain Google Benchmark loop, by a gbx
// fixture (the class form) and by the short form, side by side in one run. The three run in rounds,
// one after another in an order that changes from round to round, so that each round's ratio to the
// plain loop compares runs a fraction of a second apart: this machine's speed drifts by a few percent
// over seconds, and three parts run whole one after the other would carry that drift into the ratio.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <gbx/gbx.h>

#include "kernels/reduce.h"
#include "model/protocol.h"
#include "reporters/gbx_reporter.h"
#include "reporters/run_error.h"
#include "stats/statistics.h"

namespace {

constexpr std::size_t kCount = 1024;
constexpr int kRounds = 12;  // two of each of the six orders of the three forms
constexpr int kPlainRepetitionsPerRound = 5;
constexpr int kSamplesPerRound = 10;

const char* const kForms[3] = {"overhead/plain_loop", "overhead/gbx_fixture", "overhead/gbx_short_form"};

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
        plain_round.push_back(round);
      }
    }
    gbx::GbxReporter::ReportRuns(runs);
  }
  std::vector<double> plain_seconds;
  std::vector<int> plain_round;  // the round of each plain repetition
  int round = 0;
};

struct RoundMeans {
  std::vector<double> plain, fixture, short_form;  // one mean per round, seconds
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  gbx::detail::Protocol protocol;
  protocol.min_samples = kSamplesPerRound;
  gbx::detail::set_active_protocol(protocol);

  benchmark::RegisterBenchmark(kForms[0], plain_loop)->Repetitions(kPlainRepetitionsPerRound);
  gbx::register_fixture<GbxSum>("overhead", "gbx_fixture");
  gbx::detail::register_short_benchmarks({});

  CollectingReporter reporter(benchmark::CreateDefaultDisplayReporter(), nullptr);
  std::vector<int> gbx_run_forms;  // the form of each gbx record, in the order they are published
  std::array<int, 3> order = {0, 1, 2};
  for (int round = 0; round < kRounds; ++round) {
    reporter.round = round;
    for (const int form : order) {
      benchmark::RunSpecifiedBenchmarks(&reporter, std::string("^") + kForms[form] + "(/|$)");
      if (form != 0) gbx_run_forms.push_back(form);
    }
    // Rotate every round and swap the last two every third: the twelve rounds hold each order twice.
    std::rotate(order.begin(), order.begin() + 1, order.end());
    if (round % 3 == 2) std::swap(order[1], order[2]);
  }
  benchmark::Shutdown();

  const std::vector<gbx::detail::RunRecord> records = gbx::SampleChannel::global().records();
  if (reporter.plain_seconds.empty() || records.size() != gbx_run_forms.size()) {
    std::fprintf(stderr, "harness_overhead: %zu plain repetitions and %zu gbx records for %zu gbx runs\n",
                 reporter.plain_seconds.size(), records.size(), gbx_run_forms.size());
    return 1;
  }
  RoundMeans means;
  std::vector<double> fixture_samples, short_samples;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<double> plain;
    for (std::size_t i = 0; i < reporter.plain_seconds.size(); ++i) {
      if (reporter.plain_round[i] == round) plain.push_back(reporter.plain_seconds[i]);
    }
    if (plain.empty()) {
      std::fprintf(stderr, "harness_overhead: the plain loop did not run in round %d\n", round);
      return 1;
    }
    means.plain.push_back(gbx::mean(plain).value_or(0.0));
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& samples = records[i].measurement.samples;
    if (samples.empty()) {
      std::fprintf(stderr, "harness_overhead: %s kept no samples\n", records[i].benchmark.c_str());
      return 1;
    }
    const bool is_fixture = gbx_run_forms[i] == 1;
    (is_fixture ? means.fixture : means.short_form).push_back(gbx::mean(samples).value_or(0.0));
    auto& pooled = is_fixture ? fixture_samples : short_samples;
    pooled.insert(pooled.end(), samples.begin(), samples.end());
  }

  std::printf(
      "\nharness overhead, kernel: naive sum of %zu floats; %d rounds, each form once per round in a changing "
      "order\n",
      kCount, kRounds);
  std::printf("  plain Google Benchmark loop: mean %.4g ns (round means %.4g to %.4g ns), %d repetitions a round\n",
              gbx::mean(means.plain).value_or(0.0) * 1e9,
              *std::min_element(means.plain.begin(), means.plain.end()) * 1e9,
              *std::max_element(means.plain.begin(), means.plain.end()) * 1e9, kPlainRepetitionsPerRound);
  // Like for like: a plain repetition's time is a mean over its iterations, so the ratio compares
  // means. Each round's ratio is taken within the round; their median is the figure to quote.
  const auto report = [&](const char* name, const std::vector<double>& form_means, const std::vector<double>& samples) {
    std::vector<double> ratios;
    for (std::size_t r = 0; r < form_means.size(); ++r) ratios.push_back(form_means[r] / means.plain[r]);
    std::printf(
        "  %-24s mean %.4g ns, median %.4g ns over %zu samples; ratio of means to plain, per round: median "
        "%.3f (%.3f to %.3f)\n",
        name, gbx::mean(samples).value_or(0.0) * 1e9, *gbx::median(samples) * 1e9, samples.size(), *gbx::median(ratios),
        *std::min_element(ratios.begin(), ratios.end()), *std::max_element(ratios.begin(), ratios.end()));
  };
  report("class form (fixture):", means.fixture, fixture_samples);
  report("short form (GBX_BENCH):", means.short_form, short_samples);
  return 0;
}

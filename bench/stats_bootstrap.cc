// Cost of the statistics layer: BCa bootstrap of the median at n = 1,000 and n = 100,000, and the
// closed-form part of a report (summary, intervals, outliers) for 1,000 benchmarks of 1,000 samples.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>
#include <thread>
#include <vector>

#include "reporters/bootstrap.h"
#include "reporters/outliers.h"
#include "reporters/statistics.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Process CPU time, all threads: on a shared machine it shows the work apart from the waiting.
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

std::vector<double> lognormal_samples(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::lognormal_distribution<double> distribution(std::log(1e-6), 0.25);  // about a microsecond per run
  std::vector<double> samples(n);
  for (double& sample : samples) sample = distribution(engine);
  return samples;
}

// Keeps the optimizer from discarding results it can see are unused.
double sink = 0.0;

void bootstrap_case(std::size_t n) {
  const std::vector<double> samples = lognormal_samples(n, 42);
  gbx::BootstrapOptions options;  // BCa, 10,000 resamples
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  const gbx::BootstrapResult result = gbx::bootstrap_interval(samples, gbx::BootstrapStatistic::median, options);
  const double wall = seconds_since(start);
  const double cpu = cpu_seconds() - cpu_start;
  sink += result.interval ? result.interval->upper : 0.0;
  std::printf(
      "BCa median, n = %7zu, %zu resamples: %8.3f s wall (%.3f s CPU), %.3g samples x resamples per "
      "second%s\n",
      n, options.resamples, wall, cpu, static_cast<double>(n) * static_cast<double>(options.resamples) / wall,
      result.degenerate ? " (degenerate)" : "");
}

void report(const std::vector<double>& samples) {
  const std::optional<gbx::Summary> summary = gbx::summarize(samples);
  const std::optional<gbx::Interval> mean_interval = gbx::student_t_interval(samples);
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  for (double q : {0.5, 0.9, 0.99}) {
    const std::optional<gbx::QuantileInterval> interval = gbx::quantile_interval_sorted(sorted, q);
    sink += interval ? interval->interval.upper : 0.0;
  }
  const gbx::OutlierReport outliers = gbx::analyze_outliers(samples);
  sink += (summary ? summary->median : 0.0) + (mean_interval ? mean_interval->upper : 0.0) +
          static_cast<double>(outliers.tukey ? outliers.tukey->count() : 0);
}

}  // namespace

int main() {
  std::printf("hardware threads: %u\n", std::thread::hardware_concurrency());
  bootstrap_case(1000);
  bootstrap_case(100000);

  constexpr std::size_t kBenchmarks = 1000;
  constexpr std::size_t kSamples = 1000;
  std::vector<std::vector<double>> benchmarks;
  for (std::size_t b = 0; b < kBenchmarks; ++b) benchmarks.push_back(lognormal_samples(kSamples, b));
  auto start = std::chrono::steady_clock::now();
  double cpu_start = cpu_seconds();
  for (const std::vector<double>& samples : benchmarks) report(samples);
  std::printf(
      "report of %zu benchmarks x %zu samples (summary, Student t, order-statistic intervals for "
      "median/p90/p99, outliers): %.3f s wall (%.3f s CPU)\n",
      kBenchmarks, kSamples, seconds_since(start), cpu_seconds() - cpu_start);

  // With a BCa median interval per benchmark as well: timed on a few, scaled to all of them.
  constexpr std::size_t kTimed = 20;
  start = std::chrono::steady_clock::now();
  cpu_start = cpu_seconds();
  for (std::size_t b = 0; b < kTimed; ++b) {
    const gbx::BootstrapResult result = gbx::bootstrap_interval(benchmarks[b], gbx::BootstrapStatistic::median);
    sink += result.interval ? result.interval->lower : 0.0;
  }
  std::printf(
      "adding a BCa median interval (10,000 resamples) to each: %.3f s wall (%.3f s CPU) more, scaled from "
      "%zu\n",
      seconds_since(start) * kBenchmarks / kTimed, (cpu_seconds() - cpu_start) * kBenchmarks / kTimed, kTimed);
  return sink == 12345.0 ? 1 : 0;
}

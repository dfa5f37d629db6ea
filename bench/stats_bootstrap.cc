// Cost of the statistics layer. The requirement: reporting 1,000 benchmarks of 1,000 samples must not
// add more than a few seconds. Per benchmark, run_analysis.cc computes a BCa interval for the median
// and one for the mean (default options), and the closed-form rest (summary, Student t, order-statistic
// intervals, outliers); this times exactly that, for 1,000 lognormal benchmarks, and the parts alone.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <thread>
#include <vector>

#include "model/clock.h"
#include "stats/bootstrap.h"
#include "stats/outliers.h"
#include "stats/statistics.h"

namespace {

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

struct Timer {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = cpu_seconds();
  double wall_seconds() const { return gbx::seconds_since(wall); }
  double cpu_seconds_used() const { return cpu_seconds() - cpu; }
};

void bootstrap_case(std::size_t n, gbx::BootstrapStatistic statistic, bool analytic) {
  const std::vector<double> samples = lognormal_samples(n, 42);
  gbx::BootstrapOptions options;  // BCa, 10,000 resamples when sampled
  options.analytic = analytic;
  const Timer timer;
  const gbx::BootstrapResult result = gbx::bootstrap_interval(samples, statistic, options);
  const double wall = timer.wall_seconds();
  sink += result.interval ? result.interval->upper : 0.0;
  std::printf("BCa %-6s n = %6zu, %-11s: %9.3f ms wall (%.3f ms CPU)%s\n", gbx::to_string(statistic), n,
              gbx::to_string(result.distribution), 1e3 * wall, 1e3 * timer.cpu_seconds_used(),
              result.degenerate ? " (degenerate)" : "");
}

// The closed-form part of run_analysis.cc.
void closed_form(const std::vector<double>& samples) {
  const std::optional<gbx::Summary> summary = gbx::summarize(samples);
  const std::optional<gbx::detail::Interval> mean_interval = gbx::student_t_interval(samples);
  for (double q : {0.5, 0.9, 0.99}) {
    const std::optional<gbx::detail::QuantileInterval> interval = gbx::quantile_interval(samples, q);
    sink += interval ? interval->interval.upper : 0.0;
  }
  const gbx::OutlierReport outliers = gbx::analyze_outliers(samples);
  sink += (summary ? summary->median : 0.0) + (mean_interval ? mean_interval->upper : 0.0) +
          static_cast<double>(outliers.tukey ? outliers.tukey->count() : 0);
}

// The two bootstrap intervals of run_analysis.cc.
void bootstrap_pair(const std::vector<double>& samples, const gbx::BootstrapOptions& options) {
  const gbx::BootstrapResult median = gbx::bootstrap_interval(samples, gbx::BootstrapStatistic::median, options);
  const gbx::BootstrapResult mean = gbx::bootstrap_interval(samples, gbx::BootstrapStatistic::mean, options);
  sink += (median.interval ? median.interval->lower : 0.0) + (mean.interval ? mean.interval->lower : 0.0);
}

template <typename Work>
void timed(const char* what, const std::vector<std::vector<double>>& benchmarks, std::size_t count, Work work) {
  const Timer timer;
  for (std::size_t b = 0; b < count; ++b) work(benchmarks[b]);
  const double scale = static_cast<double>(benchmarks.size()) / static_cast<double>(count);
  std::printf("%-68s %8.3f s wall (%.3f s CPU)%s\n", what, timer.wall_seconds() * scale,
              timer.cpu_seconds_used() * scale, count < benchmarks.size() ? ", scaled from a few" : "");
}

}  // namespace

int main() {
  double load[3] = {-1.0, -1.0, -1.0};
  getloadavg(load, 3);
  std::printf("hardware threads: %u; load average at start %.2f %.2f %.2f\n", std::thread::hardware_concurrency(),
              load[0], load[1], load[2]);
  for (std::size_t n : {1000u, 1001u, 100000u}) bootstrap_case(n, gbx::BootstrapStatistic::median, true);
  for (std::size_t n : {1000u, 100000u}) bootstrap_case(n, gbx::BootstrapStatistic::mean, true);
  bootstrap_case(1000, gbx::BootstrapStatistic::median, false);
  bootstrap_case(1000, gbx::BootstrapStatistic::mean, false);

  constexpr std::size_t kBenchmarks = 1000;
  constexpr std::size_t kSamples = 1000;
  std::vector<std::vector<double>> benchmarks;
  for (std::size_t b = 0; b < kBenchmarks; ++b) benchmarks.push_back(lognormal_samples(kSamples, b));
  std::printf("\n%zu benchmarks x %zu lognormal samples:\n", kBenchmarks, kSamples);
  const gbx::BootstrapOptions defaults;
  timed("closed-form part (summary, Student t, order statistics, outliers)", benchmarks, kBenchmarks, closed_form);
  timed("BCa median + BCa mean (default: exact + saddlepoint)", benchmarks, kBenchmarks,
        [&](const std::vector<double>& samples) { bootstrap_pair(samples, defaults); });
  timed("all of it, as run_analysis.cc does per benchmark", benchmarks, kBenchmarks,
        [&](const std::vector<double>& samples) {
          bootstrap_pair(samples, defaults);
          closed_form(samples);
        });
  gbx::BootstrapOptions monte_carlo;
  monte_carlo.analytic = false;
  timed("BCa median + BCa mean by Monte Carlo (10,000 resamples)", benchmarks, 10,
        [&](const std::vector<double>& samples) { bootstrap_pair(samples, monte_carlo); });

  // One sample 20 times the rest in every benchmark (a preempted run): the mean's bootstrap
  // distribution is then lumpy, the saddlepoint is refused, and the mean is sampled.
  std::vector<std::vector<double>> spiky = benchmarks;
  for (std::vector<double>& samples : spiky) samples[0] *= 20.0;
  timed("the same with a 20x spike in each (mean by Monte Carlo)", spiky, 20,
        [&](const std::vector<double>& samples) { bootstrap_pair(samples, defaults); });

  getloadavg(load, 3);
  std::printf("load average at end %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  return sink == 12345.0 ? 1 : 0;
}

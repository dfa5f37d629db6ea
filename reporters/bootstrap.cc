#include "reporters/bootstrap.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <random>
#include <thread>

#include <boost/math/distributions/normal.hpp>

namespace gbx {
namespace {

// Below this many drawn indices per thread, starting a thread costs more than it saves.
constexpr std::size_t kMinDrawsPerThread = std::size_t{1} << 17;

std::uint64_t splitmix64(std::uint64_t state) {
  std::uint64_t z = state + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t chunk_seed(std::uint64_t seed, std::size_t chunk) {
  return splitmix64(splitmix64(seed) ^ static_cast<std::uint64_t>(chunk));
}

// Uniform in [0, bound) from a 32-bit draw, unbiased (Lemire 2019). The rejection branch is taken with
// probability below bound / 2^32, so two indices come from each 64-bit engine output.
std::uint32_t bounded(std::uint32_t draw, std::uint32_t bound, std::mt19937_64& engine) {
  std::uint64_t product = std::uint64_t{draw} * bound;
  auto low = static_cast<std::uint32_t>(product);
  if (low < bound) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(0u - bound) % bound;
    while (low < threshold) {
      product = (engine() & 0xffffffffULL) * bound;
      low = static_cast<std::uint32_t>(product);
    }
  }
  return static_cast<std::uint32_t>(product >> 32);
}

// Calls visit(index) for n indices drawn uniformly from [0, n): one resample, with replacement.
template <typename Visit>
void draw_indices(std::size_t n, std::mt19937_64& engine, Visit visit) {
  const auto bound = static_cast<std::uint32_t>(n);
  std::size_t i = 0;
  for (; i + 1 < n; i += 2) {
    const std::uint64_t draw = engine();
    visit(bounded(static_cast<std::uint32_t>(draw), bound, engine));
    visit(bounded(static_cast<std::uint32_t>(draw >> 32), bound, engine));
  }
  if (i < n) visit(bounded(static_cast<std::uint32_t>(engine()), bound, engine));
}

// The midpoint as numpy's median computes it ((a + b) / 2), so that resampled medians equal to the
// estimate compare equal in z0's mid-rank count. Halving first cannot overflow and rounds the same.
double midpoint(double a, double b) { return 0.5 * a + 0.5 * b; }

double median_of_sorted(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : midpoint(sorted[n / 2 - 1], sorted[n / 2]);
}

double mean_of(const std::vector<double>& values) {
  double sum = 0.0;
  for (double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

// The statistic on one resample of `sorted`. For the median, indices stand for values: the data are
// sorted, so the k-th smallest drawn index is the k-th smallest drawn value, and a count per index
// (a counting sort, stopped at the middle) selects it in O(n). That is about 3 times faster than
// std::nth_element on the drawn indices, whose unpredictable branches cost more than the draws.
double resample_statistic(const std::vector<double>& sorted, BootstrapStatistic statistic,
                          std::vector<std::uint32_t>& counts, std::mt19937_64& engine) {
  const std::size_t n = sorted.size();
  if (statistic == BootstrapStatistic::mean) {
    double sum = 0.0;
    draw_indices(n, engine, [&](std::uint32_t index) { sum += sorted[index]; });
    return sum / static_cast<double>(n);
  }
  std::fill(counts.begin(), counts.end(), 0u);
  draw_indices(n, engine, [&](std::uint32_t index) { ++counts[index]; });
  const std::size_t middle = (n - 1) / 2;  // 0-based rank of the (lower) middle value
  std::size_t index = 0;
  std::size_t through = counts[0];  // drawn values with index <= `index`
  while (through <= middle) through += counts[++index];
  const double lower = sorted[index];
  if (n % 2 == 1) return lower;
  // The upper middle (rank middle + 1) shares the index when it was drawn more than once past it.
  while (through <= middle + 1) through += counts[++index];
  return midpoint(lower, sorted[index]);
}

std::vector<double> distribution_of_sorted(const std::vector<double>& sorted, BootstrapStatistic statistic,
                                           std::size_t resamples, std::uint64_t seed, unsigned threads) {
  if (sorted.empty() || resamples == 0) return {};
  std::vector<double> distribution(resamples);
  const std::size_t chunks = (resamples + kBootstrapChunk - 1) / kBootstrapChunk;
  std::atomic<std::size_t> next_chunk{0};
  // Each chunk has its own seed and its own slots, so who runs it, and when, changes nothing.
  const auto work = [&] {
    std::vector<std::uint32_t> counts(statistic == BootstrapStatistic::median ? sorted.size() : 0);
    for (std::size_t chunk = next_chunk++; chunk < chunks; chunk = next_chunk++) {
      std::mt19937_64 engine(chunk_seed(seed, chunk));
      const std::size_t end = std::min(resamples, (chunk + 1) * kBootstrapChunk);
      for (std::size_t r = chunk * kBootstrapChunk; r < end; ++r) {
        distribution[r] = resample_statistic(sorted, statistic, counts, engine);
      }
    }
  };
  std::size_t thread_count = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  thread_count =
      std::min({thread_count, chunks, std::max<std::size_t>(1, sorted.size() * resamples / kMinDrawsPerThread)});
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < thread_count; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return distribution;
}

// Jackknife acceleration from leave-one-out values given as (value, how many leave-one-outs give it).
std::optional<double> weighted_acceleration(const std::vector<std::pair<double, double>>& values) {
  double weight = 0.0;
  double sum = 0.0;
  for (const auto& [value, count] : values) {
    weight += count;
    sum += count * value;
  }
  const double dot = sum / weight;
  double squares = 0.0;
  double cubes = 0.0;
  for (const auto& [value, count] : values) {
    const double d = dot - value;
    squares += count * d * d;
    cubes += count * d * d * d;
  }
  if (!(squares > 0.0)) return std::nullopt;
  const double acceleration = cubes / (6.0 * squares * std::sqrt(squares));
  if (!std::isfinite(acceleration)) return std::nullopt;
  return acceleration;
}

std::optional<double> acceleration_of_sorted(const std::vector<double>& sorted, BootstrapStatistic statistic) {
  const std::size_t n = sorted.size();
  if (n < 2) return std::nullopt;
  if (statistic == BootstrapStatistic::mean) {
    // theta_(i) = (sum - x_i) / (n - 1), so d_i = (x_i - mean) / (n - 1); the factor cancels in a.
    const double mean = mean_of(sorted);
    std::vector<std::pair<double, double>> deviations;
    deviations.reserve(n);
    for (double value : sorted) deviations.emplace_back(mean - value, 1.0);
    return weighted_acceleration(deviations);
  }
  const std::size_t half = n / 2;  // leave-one-outs on each side of the middle
  const auto count = static_cast<double>(half);
  if (n % 2 == 0) {
    // Leaving out one of the lower half leaves x[n/2] in the middle; one of the upper half, x[n/2 - 1].
    return weighted_acceleration({{sorted[n / 2], count}, {sorted[n / 2 - 1], count}});
  }
  // Odd n, m = (n - 1) / 2: leaving out i < m, i = m or i > m leaves an even count whose middle pair
  // is (x[m], x[m+1]), (x[m-1], x[m+1]) or (x[m-1], x[m]).
  const std::size_t m = n / 2;
  return weighted_acceleration({{midpoint(sorted[m], sorted[m + 1]), count},
                                {midpoint(sorted[m - 1], sorted[m + 1]), 1.0},
                                {midpoint(sorted[m - 1], sorted[m]), count}});
}

std::string describe(BootstrapStatistic statistic, BootstrapMethod method, std::size_t resamples) {
  return std::string("bootstrap ") + to_string(method) + " (" + to_string(statistic) + ", " +
         std::to_string(resamples) + " resamples)";
}

}  // namespace

const char* to_string(BootstrapStatistic statistic) {
  return statistic == BootstrapStatistic::mean ? "mean" : "median";
}

const char* to_string(BootstrapMethod method) { return method == BootstrapMethod::bca ? "BCa" : "percentile"; }

std::vector<double> bootstrap_distribution(const std::vector<double>& samples, BootstrapStatistic statistic,
                                           std::size_t resamples, std::uint64_t seed, unsigned threads) {
  if (samples.size() > std::numeric_limits<std::uint32_t>::max()) return {};
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return distribution_of_sorted(sorted, statistic, resamples, seed, threads);
}

std::optional<double> jackknife_acceleration(const std::vector<double>& samples, BootstrapStatistic statistic) {
  if (!all_finite(samples)) return std::nullopt;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return acceleration_of_sorted(sorted, statistic);
}

std::optional<std::pair<double, double>> bca_percentiles(double bias_correction, double acceleration, double level) {
  if (!std::isfinite(bias_correction) || !std::isfinite(acceleration) || !(level > 0.0 && level < 1.0)) {
    return std::nullopt;
  }
  const boost::math::normal_distribution<double> normal;
  const auto adjusted = [&](double tail) -> std::optional<double> {
    const double shifted = bias_correction + boost::math::quantile(normal, tail);
    const double denominator = 1.0 - acceleration * shifted;
    if (!(denominator > 0.0)) return std::nullopt;
    return boost::math::cdf(normal, bias_correction + shifted / denominator);
  };
  const std::optional<double> lower = adjusted((1.0 - level) / 2.0);
  const std::optional<double> upper = adjusted(1.0 - (1.0 - level) / 2.0);
  if (!lower || !upper) return std::nullopt;
  return std::make_pair(*lower, *upper);
}

BootstrapResult bootstrap_interval(const std::vector<double>& samples, BootstrapStatistic statistic,
                                   const BootstrapOptions& options) {
  BootstrapResult result;
  result.method = options.method;
  result.seed = options.seed;
  result.resamples = options.resamples;
  const auto nothing = [&](const char* why) {
    result.reason = why;
    return result;
  };
  if (samples.empty()) return nothing("no samples");
  if (!all_finite(samples)) return nothing("a sample is not finite");
  if (!(options.level > 0.0 && options.level < 1.0)) return nothing("level outside (0, 1)");
  if (options.resamples == 0) return nothing("no resamples");
  if (samples.size() > std::numeric_limits<std::uint32_t>::max()) return nothing("more than 2^32 - 1 samples");

  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  result.estimate = statistic == BootstrapStatistic::mean ? mean_of(sorted) : median_of_sorted(sorted);
  const double alpha = 1.0 - options.level;
  result.lower_percentile = alpha / 2.0;
  result.upper_percentile = 1.0 - alpha / 2.0;

  const auto point = [&](double value, const char* why) {
    result.interval = Interval{value, value, options.level, describe(statistic, options.method, options.resamples)};
    result.degenerate = true;
    result.reason = why;
    return result;
  };
  // Every resample of constant data is that constant: no need to draw them.
  if (n == 1) return point(sorted.front(), "one sample: the interval is that sample");
  if (sorted.front() == sorted.back()) return point(sorted.front(), "all samples equal");

  std::vector<double> distribution =
      distribution_of_sorted(sorted, statistic, options.resamples, options.seed, options.threads);
  std::sort(distribution.begin(), distribution.end());
  if (distribution.front() == distribution.back()) {
    return point(distribution.front(), "the bootstrap distribution has no spread");
  }

  const auto percentile_interval = [&](const std::string& why) {
    result.method = BootstrapMethod::percentile;
    result.lower_percentile = alpha / 2.0;
    result.upper_percentile = 1.0 - alpha / 2.0;
    result.interval = Interval{quantile_sorted(distribution, result.lower_percentile),
                               quantile_sorted(distribution, result.upper_percentile), options.level,
                               describe(statistic, BootstrapMethod::percentile, options.resamples)};
    if (!why.empty()) {
      result.degenerate = true;
      result.reason = why;
    }
    return result;
  };
  if (options.method == BootstrapMethod::percentile) return percentile_interval("");
  if (n == 2) return percentile_interval("two samples: at most three resampled values, percentile interval");

  // z0 from the mid-rank fraction of resampled statistics below the estimate (ties count half).
  const auto below = std::lower_bound(distribution.begin(), distribution.end(), result.estimate);
  const auto not_above = std::upper_bound(below, distribution.end(), result.estimate);
  const double fraction =
      (static_cast<double>(below - distribution.begin()) + 0.5 * static_cast<double>(not_above - below)) /
      static_cast<double>(distribution.size());
  if (fraction <= 0.0 || fraction >= 1.0) {
    return percentile_interval(
        "every resampled statistic on one side of the estimate (z0 infinite), percentile interval");
  }
  const boost::math::normal_distribution<double> normal;
  const double z0 = boost::math::quantile(normal, fraction);
  result.bias_correction = z0;

  std::string note;
  std::optional<double> acceleration = acceleration_of_sorted(sorted, statistic);
  if (!acceleration) {
    note = "jackknife values all equal: acceleration taken as 0";
    acceleration = 0.0;
  }
  result.acceleration = acceleration;
  const std::optional<std::pair<double, double>> percentiles = bca_percentiles(z0, *acceleration, options.level);
  if (!percentiles) return percentile_interval("BCa denominator 1 - a (z0 + z) <= 0, percentile interval");
  const auto [lower, upper] = *percentiles;
  result.method = BootstrapMethod::bca;
  result.lower_percentile = lower;
  result.upper_percentile = upper;
  result.interval = Interval{quantile_sorted(distribution, lower), quantile_sorted(distribution, upper), options.level,
                             describe(statistic, BootstrapMethod::bca, options.resamples)};
  if (!note.empty()) {
    result.degenerate = true;
    result.reason = note;
  }
  return result;
}

}  // namespace gbx

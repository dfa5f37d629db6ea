// Monte-Carlo resampling: deterministic chunks of resamples, spread over threads (see bootstrap.h).
#include <algorithm>
#include <atomic>
#include <limits>
#include <random>
#include <thread>

#include "stats/bootstrap.h"
#include "stats/bootstrap_detail.h"

namespace gbx {
namespace bootstrap_detail {
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

}  // namespace

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

}  // namespace bootstrap_detail

std::vector<double> bootstrap_distribution(const std::vector<double>& samples, BootstrapStatistic statistic,
                                           std::size_t resamples, std::uint64_t seed, unsigned threads) {
  if (samples.size() > std::numeric_limits<std::uint32_t>::max()) return {};
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return bootstrap_detail::distribution_of_sorted(sorted, statistic, resamples, seed, threads);
}

}  // namespace gbx

// Hodges-Lehmann shift at 10,000 samples per side: the former all-pairs version (every difference
// held, then nth_element) beside the selection in stats/hodges_lehmann.cc, with wall time, CPU time
// and the peak bytes each allocates through operator new (counted here, so the figure is the
// algorithm's own, not the process's). Prints both and the ratios; checks they agree.
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <new>
#include <random>
#include <vector>

#include "stats/hodges_lehmann.h"

namespace {

std::atomic<std::size_t> live_bytes{0};
std::atomic<std::size_t> peak_bytes{0};

void note_allocation(void* p) {
  const std::size_t now = live_bytes += malloc_usable_size(p);
  std::size_t peak = peak_bytes.load();
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {
  }
}

}  // namespace

void* operator new(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  note_allocation(p);
  return p;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  live_bytes -= malloc_usable_size(p);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

namespace {

// The version comparison.cc had: all n1 n2 differences in memory.
double all_pairs_shift(const std::vector<double>& base, const std::vector<double>& cand) {
  std::vector<double> differences;
  differences.reserve(base.size() * cand.size());
  for (double c : cand) {
    for (double b : base) differences.push_back(c - b);
  }
  const std::size_t count = differences.size();
  const auto middle = differences.begin() + static_cast<std::ptrdiff_t>(count / 2);
  std::nth_element(differences.begin(), middle, differences.end());
  if (count % 2 == 1) return *middle;
  const double below = *std::max_element(differences.begin(), middle);
  return 0.5 * below + 0.5 * *middle;
}

struct Cost {
  double value = 0;
  double wall = 0;
  double cpu = 0;
  std::size_t peak = 0;
};

template <typename F>
Cost measure(F f) {
  const std::size_t before = live_bytes.load();
  peak_bytes = before;
  const auto wall = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  Cost cost;
  cost.value = f();
  cost.cpu = static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC;
  cost.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  cost.peak = peak_bytes.load() - before;
  return cost;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? static_cast<std::size_t>(std::atol(argv[1])) : 10000;
  std::mt19937_64 engine(42);
  std::lognormal_distribution<double> law(std::log(1e-6), 0.1);
  std::vector<double> base(n);
  std::vector<double> cand(n);
  for (double& x : base) x = law(engine);
  for (double& x : cand) x = 1.05 * law(engine);

  const Cost old_cost = measure([&] { return all_pairs_shift(base, cand); });
  const Cost new_cost = measure([&] { return gbx::hodges_lehmann_shift(base, cand); });
  std::printf("Hodges-Lehmann shift, %zu samples per side (%zu pairs)\n", n, n * n);
  std::printf("%-12s %12s %12s %14s  %s\n", "version", "wall s", "cpu s", "peak bytes", "shift");
  std::printf("%-12s %12.4f %12.4f %14zu  %.6g\n", "all pairs", old_cost.wall, old_cost.cpu, old_cost.peak,
              old_cost.value);
  std::printf("%-12s %12.4f %12.4f %14zu  %.6g\n", "selection", new_cost.wall, new_cost.cpu, new_cost.peak,
              new_cost.value);
  std::printf("ratio old/new: wall %.1fx, cpu %.1fx, peak memory %.0fx\n", old_cost.wall / new_cost.wall,
              old_cost.cpu / new_cost.cpu, static_cast<double>(old_cost.peak) / static_cast<double>(new_cost.peak));
  if (old_cost.value != new_cost.value) {
    std::printf("MISMATCH: the two versions disagree\n");
    return 1;
  }
  return 0;
}

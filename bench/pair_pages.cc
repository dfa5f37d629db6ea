// Does a worker pair measuring on the same pages agree better than one on private pages? Forks PAIRS
// pairs of processes for each of two modes, alternating: "private", where each process allocates
// triad's three arrays as a benchmark's host arrays are allocated (extensions/host_memory.h), and
// "shared", where they then go through gbx ab's pair memory (extensions/pair_memory.h) in a directory
// of /dev/shm of their own. The two processes of a pair take turns, BLOCKS blocks each (one warm-up run,
// then the median of SAMPLES samples), and the pair's estimate is the log ratio of their medians of
// blocks. Prints one line per pair and mode, then the standard deviation of the estimates per mode:
// the per-process term that only the same pages cancel (extensions/pair_memory.h).
// Usage: pair_pages [n, default 65536] [pairs, default 16] [blocks, default 8] [samples, default 30];
// pin it (taskset -c 1).
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "extensions/host_memory.h"
#include "extensions/pair_memory.h"
#include "kernels/bandwidth.h"
#include "stats/statistics.h"

namespace {

struct Options {
  std::size_t n = 65536;
  int pairs = 16;
  int blocks = 8;
  int samples = 30;
};

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The median seconds per run over the block's samples, each of enough runs to last about 20 us.
double run_block(float* a, const float* b, const float* c, const Options& o) {
  const int runs = std::max(1, static_cast<int>(2000000 / o.n));
  gbx::kernels::triad(a, b, c, 1.5f, o.n);
  std::vector<double> samples;
  for (int s = 0; s < o.samples; ++s) {
    const double start = seconds_now();
    for (int r = 0; r < runs; ++r) gbx::kernels::triad(a, b, c, 1.5f, o.n);
    samples.push_back((seconds_now() - start) / runs);
  }
  std::nth_element(samples.begin(), samples.begin() + o.samples / 2, samples.end());
  return samples[static_cast<std::size_t>(o.samples / 2)];
}

// One side of a pair: its arrays, then its blocks, each when the token comes, into results[block].
void side(bool shared, int turn_in, int turn_out, double* results, const Options& o) {
  std::vector<std::shared_ptr<void>> storage;
  std::vector<gbx::detail::HostArray> arrays;
  for (int i = 0; i < 3; ++i) {
    storage.push_back(gbx::allocate_host_bytes(o.n * sizeof(float)));
    auto* values = static_cast<float*>(storage.back().get());
    std::fill_n(values, o.n, static_cast<float>(i + 1));
    arrays.push_back({values, o.n * sizeof(float)});
  }
  char token = 0;
  if (::read(turn_in, &token, 1) != 1) std::_Exit(1);
  // The first to get here publishes, the second joins (as a worker's setup does).
  if (shared && gbx::detail::share_setup_with_pair("triad", arrays).private_bytes > 0) std::_Exit(3);
  for (int b = 0; b < o.blocks; ++b) {
    if (b > 0 && ::read(turn_in, &token, 1) != 1) std::_Exit(1);
    results[b] = run_block(static_cast<float*>(arrays[0].data), static_cast<const float*>(arrays[1].data),
                           static_cast<const float*>(arrays[2].data), o);
    if (::write(turn_out, &token, 1) != 1) std::_Exit(1);
  }
  std::_Exit(0);
}

// One pair: its estimate, or NaN where a side failed.
double run_pair(bool shared, const Options& o) {
  const std::size_t bytes = 2 * static_cast<std::size_t>(o.blocks) * sizeof(double);
  auto* results = static_cast<double*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (results == MAP_FAILED) return std::nan("");
  std::string directory;
  if (shared) {
    char name[] = "/dev/shm/gbx-pair-pages-XXXXXX";
    if (::mkdtemp(name) == nullptr) return std::nan("");
    directory = name;
  }
  gbx::detail::share_host_arrays_with_pair(directory);
  int to_first[2];
  int to_second[2];
  if (::pipe(to_first) != 0 || ::pipe(to_second) != 0) return std::nan("");
  pid_t children[2];
  for (int s = 0; s < 2; ++s) {
    children[s] = ::fork();
    if (children[s] == 0) {
      if (s == 0) side(shared, to_first[0], to_second[1], results, o);
      side(shared, to_second[0], to_first[1], results + o.blocks, o);
    }
  }
  const char token = 'x';
  bool ok = ::write(to_first[1], &token, 1) == 1;
  for (const pid_t child : children) {
    int status = 0;
    ::waitpid(child, &status, 0);
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  for (const int fd : {to_first[0], to_first[1], to_second[0], to_second[1]}) ::close(fd);
  if (!directory.empty()) std::filesystem::remove_all(directory);
  const auto blocks = static_cast<std::ptrdiff_t>(o.blocks);
  const double estimate = ok ? std::log(gbx::median({results + blocks, results + 2 * blocks}).value_or(0.0) /
                                        gbx::median({results, results + blocks}).value_or(0.0))
                             : std::nan("");
  ::munmap(results, bytes);
  return estimate;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (argc > 1) o.n = std::strtoull(argv[1], nullptr, 10);
  if (argc > 2) o.pairs = std::atoi(argv[2]);
  if (argc > 3) o.blocks = std::atoi(argv[3]);
  if (argc > 4) o.samples = std::atoi(argv[4]);
  if (o.n * sizeof(float) < gbx::kHugePageBytes / 8 || o.pairs < 2 || o.blocks < 1 || o.samples < 1) {
    std::fprintf(stderr, "usage: pair_pages [n >= %zu] [pairs > 1] [blocks > 0] [samples > 0]\n",
                 gbx::kHugePageBytes / 8 / sizeof(float));
    return 2;
  }
  std::vector<double> estimates[2];
  std::printf("pair mode     log ratio\n");
  for (int p = 0; p < o.pairs; ++p) {
    for (const int mode : {0, 1}) {
      const double x = run_pair(mode == 1, o);
      if (std::isnan(x)) {
        std::fprintf(stderr, "pair_pages: pair %d (%s) failed\n", p, mode == 1 ? "shared" : "private");
        return 1;
      }
      estimates[mode].push_back(x);
      std::printf("%4d %-8s %+8.2f%%\n", p, mode == 1 ? "shared" : "private", 100 * x);
      std::fflush(stdout);
    }
  }
  for (const int mode : {0, 1}) {
    const auto& x = estimates[mode];
    double mean = 0.0;
    for (const double v : x) mean += v / static_cast<double>(x.size());
    double sum = 0.0;
    double largest = 0.0;
    for (const double v : x) {
      sum += (v - mean) * (v - mean);
      largest = std::max(largest, std::abs(v));
    }
    std::printf("%-8s pairs %zu  sd of the log ratios %.2f%%  largest |log ratio| %.2f%%\n",
                mode == 1 ? "shared" : "private", x.size(), 100 * std::sqrt(sum / static_cast<double>(x.size() - 1)),
                100 * largest);
  }
  return 0;
}

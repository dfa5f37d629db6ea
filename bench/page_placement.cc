// Does a memory-bound kernel's speed depend on which physical pages its arrays get? Allocates SETS
// sets of triad's three arrays as a benchmark's host arrays are allocated (extensions/host_memory.h:
// 2 MiB-aligned, advised to huge pages) and keeps them all, so that each set lands elsewhere; then
// times kernels::triad on every set in PASSES passes, interleaved. A speed that follows the set from
// pass to pass is the placement's; one that follows the pass is the machine's (the reason for the huge
// pages of extensions/host_memory.h). Prints one line per set and pass: the median time per run, whether
// each array is in a huge page, and its physical address (from /proc/self/pagemap: 0 without
// CAP_SYS_ADMIN). Usage: page_placement [n, default 65536] [sets, default 24] [passes, default 3]; pin it
// (taskset).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "extensions/host_memory.h"
#include "kernels/bandwidth.h"

namespace {

std::uint64_t physical_address(const void* data) {
  constexpr std::uint64_t kPage = 4096;
  constexpr std::uint64_t kFrameBits = (std::uint64_t{1} << 55) - 1;
  const int fd = open("/proc/self/pagemap", O_RDONLY);
  if (fd < 0) return 0;
  std::uint64_t entry = 0;
  const auto virtual_page = reinterpret_cast<std::uintptr_t>(data) / kPage;
  const bool read = pread(fd, &entry, sizeof entry, static_cast<off_t>(virtual_page * sizeof entry)) ==
                    static_cast<ssize_t>(sizeof entry);
  close(fd);
  return read ? (entry & kFrameBits) * kPage : 0;
}

struct ArraySet {
  std::array<std::shared_ptr<void>, 3> storage;  // a, b, c
  float* array(std::size_t i) const { return static_cast<float*>(storage[i].get()); }
};

// The median seconds per run over 100 samples of 10 runs, after 50 runs of warm-up.
double median_run_seconds(const ArraySet& set, std::size_t n) {
  constexpr int kWarmup = 50;
  constexpr int kSamples = 100;
  constexpr int kRunsPerSample = 10;
  for (int i = 0; i < kWarmup; ++i) gbx::kernels::triad(set.array(0), set.array(1), set.array(2), 1.5f, n);
  std::vector<double> samples;
  for (int s = 0; s < kSamples; ++s) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < kRunsPerSample; ++r) gbx::kernels::triad(set.array(0), set.array(1), set.array(2), 1.5f, n);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    samples.push_back(elapsed.count() / kRunsPerSample);
  }
  std::nth_element(samples.begin(), samples.begin() + kSamples / 2, samples.end());
  return samples[kSamples / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 65536;
  const int sets = argc > 2 ? std::atoi(argv[2]) : 24;
  const int passes = argc > 3 ? std::atoi(argv[3]) : 3;
  if (n == 0 || sets < 1 || passes < 1) {
    std::fprintf(stderr, "usage: page_placement [n > 0] [sets > 0] [passes > 0]\n");
    return 2;
  }
  std::vector<ArraySet> all(static_cast<std::size_t>(sets));
  for (ArraySet& set : all) {
    for (std::size_t i = 0; i < 3; ++i) {
      set.storage[i] = gbx::allocate_host_bytes(n * sizeof(float));
      std::fill_n(set.array(i), n, static_cast<float>(i + 1));
    }
  }
  std::printf("pass set  us/run  huge(a b c)  physical a, b, c\n");
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t s = 0; s < all.size(); ++s) {
      const ArraySet& set = all[s];
      const double seconds = median_run_seconds(set, n);
      std::printf("%4d %3zu %7.2f  %d %d %d  %#llx %#llx %#llx\n", pass, s, seconds * 1e6,
                  gbx::in_huge_pages(set.array(0)), gbx::in_huge_pages(set.array(1)), gbx::in_huge_pages(set.array(2)),
                  static_cast<unsigned long long>(physical_address(set.array(0))),
                  static_cast<unsigned long long>(physical_address(set.array(1))),
                  static_cast<unsigned long long>(physical_address(set.array(2))));
    }
  }
  return 0;
}

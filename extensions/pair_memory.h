#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gbx::detail {

// The two workers of a `gbx ab` worker pair measure on one copy of each large host array. Each fresh
// process gets its own physical pages, and on a VM where they lie moves a memory-bound kernel by
// several percent for the life of the process (triad at n = 65536: the pairs' log ratios had a
// standard deviation of 2.4% on private pages, 0.13% on shared ones; bench/pair_pages.cc). Interleaved
// blocks cancel the drift in time, and only the same pages cancel the placement.

// The directory the pair shares, on a tmpfs (the parent makes one per worker pair:
// processes/pair_memory_directory.h); "" turns sharing off, the default.
void share_host_arrays_with_pair(const std::string& directory);
bool sharing_host_arrays_with_pair();

// The name under which this process's current benchmark shares its arrays: the comparison's row,
// which both workers of a pair know (they may run differently named variants of one problem).
// "" falls back to the benchmark's own name.
void set_pair_memory_key(const std::string& key);

struct HostArray {
  void* data = nullptr;
  std::size_t bytes = 0;
};

struct PairMemoryOutcome {
  std::size_t shared_bytes = 0;   // large arrays on the pages the pair shares
  std::size_t private_bytes = 0;  // large arrays on this process's own pages
  std::string why_private;        // why the first private array is (empty where none is, or sharing is off)
};

// Called at the end of a setup, before its first measurement, with its host arrays in the order the
// setup allocated them; only the large ones (2 MiB-aligned: extensions/host_memory.h) take part. The
// first worker of the pair to get here publishes each array's bytes as the pages both will measure
// on, which it maps over its own, with a fingerprint (size and hash) of them as its setup left them.
// The second compares its own bytes' fingerprint and maps the same pages where they are equal. Arrays whose bytes
// differ (another setup), and any failure (no space, no tmpfs), stay private; nothing is lost.
// From then on each side's runs write into memory the other reads: fine for kernels whose outputs
// are a function of their inputs, as a comparison of two builds of one benchmark assumes.
PairMemoryOutcome share_setup_with_pair(const std::string& benchmark, const std::vector<HostArray>& arrays);

// What the setup being measured got; reset when a new setup starts.
const PairMemoryOutcome& current_pair_memory();
void reset_pair_memory();

// Whether a directory is on a tmpfs, whose pages are never written back to a disk while a kernel
// runs on them (a file on a disk would be).
bool on_tmpfs(const std::string& directory);

}  // namespace gbx::detail

#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

// Many records are read, checked and summarised independently, and each one is CPU-bound (parse,
// schema, seal): spread over the cores, a history of a hundred records takes a fraction of the time.

namespace gbx::tools {

// The threads worth starting for n independent items: one per core, at most n, at least 1.
inline unsigned worker_count(std::size_t n) {
  const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(cores, n)));
}

// Calls work(i) once for each i in [0, n), on `threads` threads (the caller's among them), taking the
// indices in increasing order. As a loop stopping at its first fault would, it then rethrows the
// exception of the lowest index that threw; indices above it may not have run.
template <class Work>
void for_each_index(std::size_t n, unsigned threads, Work work) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> failed{std::numeric_limits<std::size_t>::max()};
  std::mutex fault_mutex;
  std::exception_ptr fault;
  const auto run = [&] {
    for (std::size_t i = next++; i < n && i < failed; i = next++) {
      try {
        work(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(fault_mutex);
        if (i < failed) {
          failed = i;
          fault = std::current_exception();
        }
      }
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back(run);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running share the work
    }
  }
  run();
  for (auto& helper : helpers) helper.join();
  if (fault) std::rethrow_exception(fault);
}

}  // namespace gbx::tools

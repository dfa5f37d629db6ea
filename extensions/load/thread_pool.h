#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "extensions/load/load_engine.h"

namespace gbx {

// One thread per worker, each running only its own `run` (a fixture instance with its own inputs;
// for CUDA, a launch on that instance's stream and a wait for it). Times are the steady clock, read by
// the worker around its run.
//
// Closed loop (run_closed): a worker goes straight on to its next request and writes its times into
// its own slots, allocated before the loop starts; no lock, no shared counter and no wake-up is on
// the path between two requests. The calling thread is the sampler: it sleeps to random (Poisson)
// times on its own schedule, reads each worker's busy flag (written only by that worker, on a cache
// line of its own) and, at the same reading, whether enough requests have ended.
//
// Open loop (start, wait_until): both sides spin for up to 20 us before they sleep on a condition
// variable, whose wake-up takes tens of microseconds on a loaded machine: a worker waiting for its
// next request, and the coordinator waiting for a completion or for the next arrival's deadline. A
// sampler thread of its own reads the busy flags meanwhile (begin_sampling). An exception in a run is
// rethrown by wait_until or run_closed.
class ThreadServicePool final : public ServicePool {
 public:
  // `sample_gap_seconds`: the sampler's mean interval between readings.
  explicit ThreadServicePool(std::vector<std::function<void()>> runs, double sample_gap_seconds = 100e-6);
  ~ThreadServicePool() override;
  ThreadServicePool(const ThreadServicePool&) = delete;
  ThreadServicePool& operator=(const ThreadServicePool&) = delete;

  std::size_t slots() const override { return runs_.size(); }
  double now() override;
  void start(std::size_t slot) override;
  std::optional<Completion> wait_until(double deadline) override;
  ClosedLoopTrace run_closed(std::size_t workers, std::size_t completions, double max_seconds) override;
  void begin_sampling() override;
  std::vector<OccupancySample> end_sampling() override;

 private:
  // Written by its worker only; read by the sampler and, at the end of a closed loop, the caller.
  struct alignas(64) WorkerState {
    std::atomic<int> busy{0};
    std::atomic<std::size_t> count{0};  // closed loop: slots of `log` filled
    std::vector<Completion> log;        // closed loop: sized before the loop starts
  };

  void work(std::size_t slot);
  void closed_loop(std::size_t slot);
  int in_flight() const;
  void sample_until_stopped();

  std::vector<std::function<void()>> runs_;
  double sample_gap_seconds_;
  std::unique_ptr<WorkerState[]> state_;
  std::mutex mutex_;
  std::condition_variable wake_workers_;
  std::condition_variable completed_;
  std::unique_ptr<std::atomic<bool>[]> pending_;  // per slot: a request waits to start
  std::deque<Completion> completions_;
  std::exception_ptr failure_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> closed_mode_{false};
  std::atomic<bool> stop_closed_{false};
  std::atomic<std::size_t> closed_finished_{0};
  std::uint64_t sample_seed_ = 1;
  std::atomic<bool> stop_sampling_{false};
  std::vector<OccupancySample> open_samples_;
  std::thread sampler_;
  std::vector<std::thread> threads_;
};

}  // namespace gbx

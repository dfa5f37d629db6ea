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
// the worker around its run. In a closed loop (set_repeat) a worker goes straight on to its next
// request, so the loop measures the kernels, not the hand-over. Otherwise both sides spin for up to 20 us
// before they sleep on a condition variable, whose wake-up takes tens of microseconds on a loaded machine: a worker
// waiting for its next request, and the coordinator waiting for a completion or for the next arrival's deadline. So
// arrivals are released within microseconds of their schedule (the lateness the record keeps says how close). An
// exception in a run is rethrown by wait_until.
class ThreadServicePool final : public ServicePool {
 public:
  explicit ThreadServicePool(std::vector<std::function<void()>> runs);
  ~ThreadServicePool() override;
  ThreadServicePool(const ThreadServicePool&) = delete;
  ThreadServicePool& operator=(const ThreadServicePool&) = delete;

  std::size_t slots() const override { return runs_.size(); }
  double now() override;
  void start(std::size_t slot) override;
  void set_repeat(bool repeat) override { repeat_.store(repeat); }
  std::optional<Completion> wait_until(double deadline) override;

 private:
  void work(std::size_t slot);

  std::vector<std::function<void()>> runs_;
  std::mutex mutex_;
  std::condition_variable wake_workers_;
  std::condition_variable completed_;
  std::unique_ptr<std::atomic<bool>[]> pending_;  // per slot: a request waits to start
  std::deque<Completion> completions_;
  std::exception_ptr failure_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> repeat_{false};
  std::vector<std::thread> threads_;
};

}  // namespace gbx

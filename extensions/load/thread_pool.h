#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "extensions/load/load_engine.h"

namespace gbx {

// One thread per worker, each running only its own `run` (a fixture instance with its own inputs;
// for CUDA, a launch on that instance's stream and a wait for it). Times are the steady clock, read by
// the worker around its run. wait_until sleeps on a condition variable until shortly before the
// deadline and spins the rest, so that arrivals are released within microseconds of their schedule
// (the lateness the record keeps says how close). An exception in a run is rethrown by wait_until.
class ThreadServicePool final : public ServicePool {
 public:
  explicit ThreadServicePool(std::vector<std::function<void()>> runs);
  ~ThreadServicePool() override;
  ThreadServicePool(const ThreadServicePool&) = delete;
  ThreadServicePool& operator=(const ThreadServicePool&) = delete;

  std::size_t slots() const override { return runs_.size(); }
  double now() override;
  void start(std::size_t slot) override;
  std::optional<Completion> wait_until(double deadline) override;

 private:
  void work(std::size_t slot);

  std::vector<std::function<void()>> runs_;
  std::mutex mutex_;
  std::condition_variable wake_workers_;
  std::condition_variable completed_;
  std::vector<bool> pending_;
  std::deque<Completion> completions_;
  std::exception_ptr failure_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace gbx

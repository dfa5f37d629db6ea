#include "extensions/load/thread_pool.h"

#include <chrono>
#include <cmath>

#include "extensions/cpu_timer.h"

namespace gbx {

namespace {

// Sleep until this long before a deadline, then spin: a condition variable's wake-up takes tens of
// microseconds on a loaded machine, which would show as lateness of the arrivals.
constexpr double kSpinSeconds = 100e-6;

}  // namespace

ThreadServicePool::ThreadServicePool(std::vector<std::function<void()>> runs)
    : runs_(std::move(runs)), pending_(runs_.size(), false) {
  threads_.reserve(runs_.size());
  for (std::size_t slot = 0; slot < runs_.size(); ++slot) threads_.emplace_back([this, slot] { work(slot); });
}

ThreadServicePool::~ThreadServicePool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_workers_.notify_all();
  for (auto& thread : threads_) thread.join();
}

double ThreadServicePool::now() { return steady_now_seconds(); }

void ThreadServicePool::start(std::size_t slot) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_[slot] = true;
  }
  wake_workers_.notify_all();
}

void ThreadServicePool::work(std::size_t slot) {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_workers_.wait(lock, [&] { return stopping_ || pending_[slot]; });
      if (stopping_) return;
      pending_[slot] = false;
    }
    Completion done;
    done.slot = slot;
    done.start = steady_now_seconds();
    std::exception_ptr failure;
    try {
      runs_[slot]();
    } catch (...) {
      failure = std::current_exception();
    }
    done.end = steady_now_seconds();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (failure && !failure_) failure_ = failure;
      completions_.push_back(done);
    }
    completed_.notify_all();
  }
}

std::optional<Completion> ThreadServicePool::wait_until(double deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto ready = [&] { return !completions_.empty() || failure_ != nullptr; };
  if (!ready()) {
    if (std::isfinite(deadline)) {
      const double sleep = deadline - kSpinSeconds - steady_now_seconds();
      if (sleep > 0.0) {
        completed_.wait_for(lock, std::chrono::duration<double>(sleep), ready);
      }
      while (!ready() && steady_now_seconds() < deadline) {
        lock.unlock();
        std::this_thread::yield();
        lock.lock();
      }
    } else {
      completed_.wait(lock, ready);
    }
  }
  if (failure_) std::rethrow_exception(failure_);
  if (completions_.empty()) return std::nullopt;
  const Completion done = completions_.front();
  completions_.pop_front();
  return done;
}

}  // namespace gbx

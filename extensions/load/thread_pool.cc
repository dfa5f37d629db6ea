#include "extensions/load/thread_pool.h"

#include <chrono>
#include <cmath>

#include "extensions/cpu_timer.h"

namespace gbx {

namespace {

// How long either side spins before it sleeps (see thread_pool.h).
constexpr double kSpinSeconds = 20e-6;

// A busy wait: yielding would hand the core to another process for a whole time slice.
inline void spin_pause() { __builtin_ia32_pause(); }

}  // namespace

ThreadServicePool::ThreadServicePool(std::vector<std::function<void()>> runs)
    : runs_(std::move(runs)), pending_(new std::atomic<bool>[runs_.size()]) {
  for (std::size_t slot = 0; slot < runs_.size(); ++slot) pending_[slot].store(false);
  threads_.reserve(runs_.size());
  for (std::size_t slot = 0; slot < runs_.size(); ++slot) threads_.emplace_back([this, slot] { work(slot); });
}

ThreadServicePool::~ThreadServicePool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_.store(true);
  }
  wake_workers_.notify_all();
  for (auto& thread : threads_) thread.join();
}

double ThreadServicePool::now() { return steady_now_seconds(); }

void ThreadServicePool::start(std::size_t slot) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_[slot].store(true);
  }
  wake_workers_.notify_all();
}

void ThreadServicePool::work(std::size_t slot) {
  bool next_started = false;  // repeating: the next request started as the last one ended
  while (true) {
    if (!next_started) {
      const double spin_end = steady_now_seconds() + kSpinSeconds;
      while (!pending_[slot].load() && !stopping_.load() && steady_now_seconds() < spin_end) spin_pause();
      std::unique_lock<std::mutex> lock(mutex_);
      wake_workers_.wait(lock, [&] { return stopping_.load() || pending_[slot].load(); });
      pending_[slot].store(false);
    }
    if (stopping_.load()) return;
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
    done.restarted = next_started = repeat_.load() && !failure;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (failure && !failure_) failure_ = failure;
      completions_.push_back(done);
    }
    completed_.notify_all();
  }
}

std::optional<Completion> ThreadServicePool::wait_until(double deadline) {
  const double spin_end = steady_now_seconds() + kSpinSeconds;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (failure_) std::rethrow_exception(failure_);
    if (!completions_.empty()) {
      const Completion done = completions_.front();
      completions_.pop_front();
      return done;
    }
    const double now = steady_now_seconds();
    if (now >= deadline) return std::nullopt;
    // Sleep only when no completion came while spinning and the deadline is not near; a completion
    // or a spurious wake-up brings the loop round again.
    if (now >= spin_end && deadline - now > kSpinSeconds) {
      if (std::isfinite(deadline)) {
        completed_.wait_for(lock, std::chrono::duration<double>(deadline - kSpinSeconds - now));
      } else {
        completed_.wait(lock);
      }
      continue;
    }
    lock.unlock();
    spin_pause();
    lock.lock();
  }
}

}  // namespace gbx

#include "extensions/load/thread_pool.h"

#include <sys/prctl.h>
#include <time.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <random>

#include "extensions/cpu_timer.h"

namespace gbx {

namespace {

// How long either side of the open loop spins before it sleeps (see thread_pool.h).
constexpr double kSpinSeconds = 20e-6;
// Slots a closed-loop worker holds beyond the completions asked for: the sampler sees that enough
// have ended only at its next reading, and the workers go on until it says stop.
constexpr std::size_t kSlack = 1 << 14;

// A busy wait: yielding would hand the core to another process for a whole time slice.
inline void spin_pause() { __builtin_ia32_pause(); }

// Sleeps until `seconds` on the steady clock (CLOCK_MONOTONIC, as libstdc++'s steady_clock reads).
void sleep_until_seconds(double seconds) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(std::floor(seconds));
  ts.tv_nsec = static_cast<long>((seconds - std::floor(seconds)) * 1e9);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
}

// The sampler's readings come at exponential gaps, so that they are independent of any period in
// the workers' requests (PASTA: Poisson arrivals see time averages). Linux's default timer slack
// (50 us) would round every sleep up; 1 us keeps the gaps close to those drawn, for this thread only.
class SamplerClock {
 public:
  SamplerClock(double mean_gap, std::uint64_t seed) : mean_gap_(mean_gap), engine_(seed) {
    previous_slack_ = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    next_ = steady_now_seconds();
  }
  ~SamplerClock() {
    if (previous_slack_ > 0) prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(previous_slack_), 0, 0, 0);
  }
  SamplerClock(const SamplerClock&) = delete;
  SamplerClock& operator=(const SamplerClock&) = delete;
  // Sleeps to the next reading's time and returns the clock then.
  double wait_next() {
    const double u = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    next_ += -mean_gap_ * std::log1p(-u);
    const double now = steady_now_seconds();
    if (next_ > now) sleep_until_seconds(next_);
    return steady_now_seconds();
  }

 private:
  double mean_gap_;
  std::mt19937_64 engine_;
  long previous_slack_ = 0;
  double next_ = 0.0;
};

}  // namespace

ThreadServicePool::ThreadServicePool(std::vector<std::function<void()>> runs, double sample_gap_seconds)
    : runs_(std::move(runs)),
      sample_gap_seconds_(sample_gap_seconds),
      state_(new WorkerState[runs_.size()]),
      pending_(new std::atomic<bool>[runs_.size()]) {
  for (std::size_t slot = 0; slot < runs_.size(); ++slot) pending_[slot].store(false);
  threads_.reserve(runs_.size());
  for (std::size_t slot = 0; slot < runs_.size(); ++slot) threads_.emplace_back([this, slot] { work(slot); });
}

ThreadServicePool::~ThreadServicePool() {
  if (sampler_.joinable()) end_sampling();
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

int ThreadServicePool::in_flight() const {
  int busy = 0;
  for (std::size_t slot = 0; slot < runs_.size(); ++slot) busy += state_[slot].busy.load(std::memory_order_acquire);
  return busy;
}

void ThreadServicePool::work(std::size_t slot) {
  WorkerState& state = state_[slot];
  while (true) {
    const double spin_end = steady_now_seconds() + kSpinSeconds;
    while (!pending_[slot].load() && !stopping_.load() && steady_now_seconds() < spin_end) spin_pause();
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_workers_.wait(lock, [&] { return stopping_.load() || pending_[slot].load(); });
      pending_[slot].store(false);
    }
    if (stopping_.load()) return;
    if (closed_mode_.load()) {
      closed_loop(slot);
      continue;
    }
    Completion done;
    done.slot = slot;
    std::exception_ptr failure;
    state.busy.store(1, std::memory_order_release);
    done.start = steady_now_seconds();
    try {
      runs_[slot]();
    } catch (...) {
      failure = std::current_exception();
    }
    state.busy.store(0, std::memory_order_release);  // before the clock read, as in closed_loop
    done.end = steady_now_seconds();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (failure && !failure_) failure_ = failure;
      completions_.push_back(done);
    }
    completed_.notify_all();
  }
}

void ThreadServicePool::closed_loop(std::size_t slot) {
  WorkerState& state = state_[slot];
  const std::function<void()>& run = runs_[slot];
  Completion* log = state.log.data();
  const std::size_t capacity = state.log.size();
  std::size_t filled = 0;
  try {
    while (filled < capacity && !stop_closed_.load(std::memory_order_relaxed)) {
      // Raised before the start's clock read and lowered before the end's: the flag's interval is
      // then as long as the timed one, shifted by the part of a clock read before its timestamp,
      // so that the sampled L and the one from the times differ by no clock read (docs/load.md).
      state.busy.store(1, std::memory_order_release);
      const double start = steady_now_seconds();
      run();
      state.busy.store(0, std::memory_order_release);
      const double end = steady_now_seconds();
      log[filled] = Completion{slot, start, end};
      state.count.store(++filled, std::memory_order_release);
    }
  } catch (...) {
    state.busy.store(0, std::memory_order_release);
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
  }
  closed_finished_.fetch_add(1);
}

ClosedLoopTrace ThreadServicePool::run_closed(std::size_t workers, std::size_t completions, double max_seconds) {
  ClosedLoopTrace trace;
  workers = std::min(workers, runs_.size());
  if (workers == 0) return trace;
  for (std::size_t slot = 0; slot < workers; ++slot) {
    // assign() writes every slot, so that no page fault lands in the loop.
    state_[slot].log.assign(completions + kSlack, Completion{});
    state_[slot].count.store(0);
  }
  trace.occupancy.reserve(static_cast<std::size_t>(std::min(4.0 * max_seconds / sample_gap_seconds_, 1e6)) + 64);
  stop_closed_.store(false);
  closed_finished_.store(0);
  closed_mode_.store(true);
  const double begin = steady_now_seconds();
  for (std::size_t slot = 0; slot < workers; ++slot) start(slot);
  {
    SamplerClock clock(sample_gap_seconds_, sample_seed_++);
    while (true) {
      const double t = clock.wait_next();
      if (trace.occupancy.size() < trace.occupancy.capacity()) trace.occupancy.push_back({t, in_flight()});
      std::size_t ended = 0;
      bool every_worker = true;
      bool full = false;
      for (std::size_t slot = 0; slot < workers; ++slot) {
        const std::size_t count = state_[slot].count.load(std::memory_order_acquire);
        ended += count;
        every_worker = every_worker && count > 0;
        full = full || count == state_[slot].log.size();
      }
      if ((ended >= completions && every_worker) || full || closed_finished_.load() > 0) break;
      if (t - begin >= max_seconds) {
        trace.time_bound_reached = true;
        break;
      }
    }
  }
  stop_closed_.store(true);
  while (closed_finished_.load() < workers) std::this_thread::sleep_for(std::chrono::microseconds(20));
  closed_mode_.store(false);
  for (std::size_t slot = 0; slot < workers; ++slot) {
    const std::size_t count = state_[slot].count.load();
    trace.completions.insert(trace.completions.end(), state_[slot].log.begin(),
                             state_[slot].log.begin() + static_cast<std::ptrdiff_t>(count));
    std::vector<Completion>().swap(state_[slot].log);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
  return trace;
}

void ThreadServicePool::sample_until_stopped() {
  SamplerClock clock(sample_gap_seconds_, sample_seed_);
  while (!stop_sampling_.load()) {
    const double t = clock.wait_next();
    open_samples_.push_back({t, in_flight()});
  }
}

void ThreadServicePool::begin_sampling() {
  if (sampler_.joinable()) return;
  open_samples_.clear();
  stop_sampling_.store(false);
  ++sample_seed_;
  sampler_ = std::thread([this] { sample_until_stopped(); });
}

std::vector<OccupancySample> ThreadServicePool::end_sampling() {
  if (!sampler_.joinable()) return {};
  stop_sampling_.store(true);
  sampler_.join();
  return std::move(open_samples_);
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

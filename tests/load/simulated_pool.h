#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <random>
#include <vector>

#include "extensions/load/load_engine.h"

namespace gbx::testing {

// Workers on a simulated clock: a request started at t ends at t + service(), and wait_until jumps
// the clock to the next completion or to the deadline, whichever is first. No thread, no sleep: the
// engine's own code runs a queue whose answer theory gives. `overshoot` delays every return at a
// deadline, as a slow wake-up would, to show the arrivals' lateness. `gap`: in a closed loop, the time
// a worker spends between two requests (the harness's own cost per request).
//
// The sampler reads the number of requests in service at Poisson times (mean `sample_gap`) on the
// simulated clock, from the pool's own count of what it started and has not ended: not from the
// completions it reports, so that a fault planted in those is seen.
class SimulatedPool final : public ServicePool {
 public:
  SimulatedPool(std::size_t slots, std::function<double()> service, double overshoot = 0.0, double gap = 0.0,
                double sample_gap = 1e-3)
      : slots_(slots), service_(std::move(service)), overshoot_(overshoot), gap_(gap), sample_gap_(sample_gap) {}

  std::size_t slots() const override { return slots_; }
  double now() override { return clock_; }
  void start(std::size_t slot) override { pending_.push({clock_ + service_(), clock_, slot, sequence_++}); }
  std::optional<Completion> wait_until(double deadline) override {
    if (!pending_.empty() && pending_.top().end <= deadline) {
      const Event e = pending_.top();
      advance_to(e.end, static_cast<int>(pending_.size()));
      pending_.pop();
      return Completion{e.slot, e.start, e.end};
    }
    if (std::isfinite(deadline)) advance_to(std::max(clock_, deadline + overshoot_), static_cast<int>(pending_.size()));
    return std::nullopt;
  }

  ClosedLoopTrace run_closed(std::size_t workers, std::size_t completions, double max_seconds) override {
    ClosedLoopTrace trace;
    workers = std::min(workers, slots_);
    sampling_ = true;
    samples_.clear();
    const double begin = clock_;
    // Events: a request's end (busy) or the next start after the gap (idle); `end` is the event's time.
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
    std::vector<std::size_t> finished(workers, 0);
    std::size_t ended = 0;
    int busy = 0;
    bool issuing = true;
    for (std::size_t slot = 0; slot < workers; ++slot, ++busy)
      events.push({clock_ + service_(), clock_, slot, sequence_++});
    while (!events.empty()) {
      const Event e = events.top();
      events.pop();
      advance_to(e.end, busy);
      if (e.start >= 0.0) {  // a request ended
        --busy;
        trace.completions.push_back({e.slot, e.start, e.end});
        ++finished[e.slot];
        ++ended;
        bool every_worker = true;
        for (std::size_t f : finished) every_worker = every_worker && f > 0;
        if (issuing && ended >= completions && every_worker) issuing = false;
        if (issuing && clock_ - begin >= max_seconds) {
          issuing = false;
          trace.time_bound_reached = true;
        }
        if (!issuing) continue;
        if (gap_ > 0.0) {
          events.push({clock_ + gap_, -1.0, e.slot, sequence_++});
          continue;
        }
      } else if (!issuing) {
        continue;
      }
      ++busy;  // the next request starts now
      events.push({clock_ + service_(), clock_, e.slot, sequence_++});
    }
    sampling_ = false;
    trace.occupancy = std::move(samples_);
    return trace;
  }

  void begin_sampling() override {
    sampling_ = true;
    samples_.clear();
  }
  std::vector<OccupancySample> end_sampling() override {
    sampling_ = false;
    return std::move(samples_);
  }

 private:
  struct Event {
    double end;
    double start;  // negative: the end of a closed-loop worker's gap
    std::size_t slot;
    std::uint64_t sequence;  // ties end in start order
    bool operator>(const Event& other) const { return end != other.end ? end > other.end : sequence > other.sequence; }
  };

  // Moves the clock to `t`; the readings due before then see `in_flight`.
  void advance_to(double t, int in_flight) {
    if (sampling_) {
      if (next_sample_ < clock_) next_sample_ = clock_ + draw_gap();
      while (next_sample_ < t) {
        samples_.push_back({next_sample_, in_flight});
        next_sample_ += draw_gap();
      }
    }
    clock_ = std::max(clock_, t);
  }
  double draw_gap() {
    const double u = static_cast<double>(sampler_engine_() >> 11) * 0x1.0p-53;
    return -sample_gap_ * std::log1p(-u);
  }

  std::size_t slots_;
  std::function<double()> service_;
  double overshoot_;
  double gap_;
  double sample_gap_;
  double clock_ = 1000.0;  // not zero, so that absolute and relative times cannot be confused
  std::uint64_t sequence_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> pending_;
  bool sampling_ = false;
  double next_sample_ = -1.0;
  std::mt19937_64 sampler_engine_{12345};
  std::vector<OccupancySample> samples_;
};

inline std::function<double()> deterministic_service(double seconds) {
  return [seconds] { return seconds; };
}

// Exponential service times with the given mean, seeded.
inline std::function<double()> exponential_service(double mean, std::uint64_t seed) {
  auto engine = std::make_shared<std::mt19937_64>(seed);
  return [engine, mean] {
    const double u = static_cast<double>((*engine)() >> 11) * 0x1.0p-53;
    return -mean * std::log1p(-u);
  };
}

// A pool that misreports its completions, as a harness with an accounting fault would: every
// completion reported twice, or every tenth one lost. The requests themselves, and the sampler's
// count of them, are the inner pool's.
class FaultyPool final : public ServicePool {
 public:
  enum class Fault { counted_twice, every_tenth_lost };
  FaultyPool(ServicePool& inner, Fault fault) : inner_(inner), fault_(fault) {}
  std::size_t slots() const override { return inner_.slots(); }
  double now() override { return inner_.now(); }
  void start(std::size_t slot) override { inner_.start(slot); }
  std::optional<Completion> wait_until(double deadline) override { return inner_.wait_until(deadline); }
  ClosedLoopTrace run_closed(std::size_t workers, std::size_t completions, double max_seconds) override {
    ClosedLoopTrace trace = inner_.run_closed(workers, completions, max_seconds);
    std::vector<Completion> reported;
    for (std::size_t i = 0; i < trace.completions.size(); ++i) {
      if (fault_ == Fault::every_tenth_lost && i % 10 == 9) continue;
      reported.push_back(trace.completions[i]);
      if (fault_ == Fault::counted_twice) reported.push_back(trace.completions[i]);
    }
    trace.completions = std::move(reported);
    return trace;
  }
  void begin_sampling() override { inner_.begin_sampling(); }
  std::vector<OccupancySample> end_sampling() override { return inner_.end_sampling(); }

 private:
  ServicePool& inner_;
  Fault fault_;
};

}  // namespace gbx::testing

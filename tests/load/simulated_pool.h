#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <random>
#include <vector>

#include "extensions/load/load_engine.h"

namespace gbx::testing {

// Workers on a simulated clock: a request started at t ends at t + service(), and wait_until jumps
// the clock to the next completion or to the deadline, whichever is first. No thread, no sleep: the
// engine's own code runs a queue whose answer theory gives. `overshoot` delays every return at a
// deadline, as a slow wake-up would, to show the arrivals' lateness.
class SimulatedPool final : public ServicePool {
 public:
  SimulatedPool(std::size_t slots, std::function<double()> service, double overshoot = 0.0)
      : slots_(slots), service_(std::move(service)), overshoot_(overshoot) {}

  std::size_t slots() const override { return slots_; }
  double now() override { return clock_; }
  void start(std::size_t slot) override { pending_.push({clock_ + service_(), clock_, slot, sequence_++}); }
  void set_repeat(bool repeat) override { repeat_ = repeat; }
  std::optional<Completion> wait_until(double deadline) override {
    if (!pending_.empty() && pending_.top().end <= deadline) {
      const Event e = pending_.top();
      pending_.pop();
      clock_ = std::max(clock_, e.end);
      if (repeat_) start(e.slot);
      return Completion{e.slot, e.start, e.end, repeat_};
    }
    if (std::isfinite(deadline)) clock_ = std::max(clock_, deadline + overshoot_);
    return std::nullopt;
  }

 private:
  struct Event {
    double end;
    double start;
    std::size_t slot;
    std::uint64_t sequence;  // ties end in start order
    bool operator>(const Event& other) const { return end != other.end ? end > other.end : sequence > other.sequence; }
  };
  std::size_t slots_;
  std::function<double()> service_;
  double overshoot_;
  bool repeat_ = false;
  double clock_ = 1000.0;  // not zero, so that absolute and relative times cannot be confused
  std::uint64_t sequence_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> pending_;
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

}  // namespace gbx::testing

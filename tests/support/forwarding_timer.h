#pragma once

#include <string>
#include <vector>

#include "extensions/timer.h"
#include "tests/support/simulated_timer.h"

namespace gbx_test {

// A Timer that forwards to a SimulatedTimer it does not own, counting and optionally logging
// start/stop, so that a test can share one simulated clock between the timer and the hooks
// (SimulatedTimer is final, and fixtures hand their timer over in a unique_ptr).
class ForwardingTimer final : public gbx::detail::Timer {
 public:
  explicit ForwardingTimer(gbx_test::SimulatedTimer& sim, std::vector<std::string>* log = nullptr)
      : sim_(sim), log_(log) {}

  void start() override {
    ++starts;
    if (log_ != nullptr) log_->push_back("start");
    sim_.start();
  }
  void stop() override {
    ++stops;
    if (log_ != nullptr) log_->push_back("stop");
    sim_.stop();
  }
  double elapsed_seconds() override { return sim_.elapsed_seconds(); }
  double resolution_seconds() const override { return sim_.resolution_seconds(); }
  gbx::detail::TimerKind kind() const override { return sim_.kind(); }

  int starts = 0;
  int stops = 0;

 private:
  gbx_test::SimulatedTimer& sim_;
  std::vector<std::string>* log_;
};

}  // namespace gbx_test

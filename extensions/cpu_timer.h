#pragma once

#include <chrono>

#include "extensions/timer.h"

namespace gbx {

// Seconds on the steady clock; never jumps with wall-clock adjustments.
double steady_now_seconds();

// CPU time consumed by this process, all threads, in seconds.
double process_cpu_seconds();

// The smallest non-zero step observed between consecutive steady-clock reads (measured once).
double steady_clock_resolution_seconds();

// Times CPU kernels with the steady clock.
class CpuTimer final : public detail::Timer {
 public:
  void start() override;
  void stop() override;
  double elapsed_seconds() override;
  double resolution_seconds() const override;
  detail::TimerKind kind() const override { return detail::TimerKind::cpu; }

 private:
  std::chrono::steady_clock::time_point start_{};
  std::chrono::steady_clock::time_point stop_{};
};

}  // namespace gbx

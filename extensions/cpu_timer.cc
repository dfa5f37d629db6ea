#include "extensions/cpu_timer.h"

#include <time.h>

#include <algorithm>

namespace gbx {

double steady_now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double steady_clock_resolution_seconds() {
  // The nominal period (1 ns) says nothing about the real tick, so observe it.
  static const double resolution = [] {
    using clock = std::chrono::steady_clock;
    auto smallest = clock::duration::max();
    for (int i = 0; i < 1000; ++i) {
      const auto a = clock::now();
      auto b = clock::now();
      while (b == a) b = clock::now();
      smallest = std::min(smallest, b - a);
    }
    return std::chrono::duration<double>(smallest).count();
  }();
  return resolution;
}

void CpuTimer::start() { start_ = std::chrono::steady_clock::now(); }

void CpuTimer::stop() { stop_ = std::chrono::steady_clock::now(); }

double CpuTimer::elapsed_seconds() { return std::chrono::duration<double>(stop_ - start_).count(); }

double CpuTimer::resolution_seconds() const { return steady_clock_resolution_seconds(); }

}  // namespace gbx

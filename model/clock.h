#pragma once

#include <chrono>

// The elapsed time on the steady clock, for deadlines, budgets, timeouts and progress. Not a
// statistic, so not in stats/; here in model/, the lowest layer that the layers which need it
// (processes/, extensions/, environment/, ab/) all sit above. Header-only: a program that links only
// gbx_stats (a self-benchmark) can use it too.

namespace gbx {

using SteadyClock = std::chrono::steady_clock;

// Seconds from start to now, as a double. now is the caller's own clock where a test drives the time
// (processes/process_progress.h); left out, it is the steady clock's.
inline double seconds_since(SteadyClock::time_point start, SteadyClock::time_point now = SteadyClock::now()) {
  return std::chrono::duration<double>(now - start).count();
}

}  // namespace gbx

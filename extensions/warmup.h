#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/measurement.h"

namespace gbx::detail {

class Timer;
struct MeasurementHooks;
struct Protocol;

// The settings of the steady-state test.
struct SteadyStateRule {
  std::size_t window = 20;  // the fewest recent samples tested; the later half of all, when more
  // A split of the window is a change point when its two medians differ by more than this,
  // relative to the window's median, and by more than 3 standard errors of that difference (the
  // noise estimated from successive differences).
  double tolerance = 0.02;
  double clock_tolerance = 0.02;  // the SM clock's (max - min) / max over the window
};

// Where the window's strongest change point lies, or nothing when no split qualifies.
std::optional<std::size_t> change_point_in_window(const std::vector<double>& window, const SteadyStateRule& rule);

// Auto warm-up (the measurement's hook): time samples of one run or more until steady, or until
// protocol.warmup_max_samples or out_of_time(). Throws Interrupted when hooks.interrupted says so.
WarmupOutcome warm_up_until_steady(const Protocol& protocol, Timer& timer, const MeasurementHooks& hooks,
                                   const std::function<bool()>& out_of_time, const SteadyStateRule& rule = {});

}  // namespace gbx::detail

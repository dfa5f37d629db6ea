#pragma once

#include <functional>

#include "extensions/load/load_engine.h"

namespace gbx {

// The highest offered load whose p99 meets the plan's latency bound, as LoadGen's Server scenario
// searches for it: a bisection over open-loop rates in (0, capacity], each step a full level judged
// VALID or INVALID (judge_validity: enough queries, and the p99's upper confidence bound within the
// bound, unsaturated). The capacity itself is taken as INVALID untested: at utilisation 1 a queue has
// no steady state. A step slower than (459 + warm-up) / plan.max_seconds_per_level could not have the
// queries its p99 needs, and one that lacked them is inconclusive: the search stops there and says why
// (PeakSearch::stopped). Otherwise it stops once the interval is plan.peak_resolution x capacity wide, after
// plan.peak_max_steps, or when `stop` says so. Assumes the p99 grows with the rate, as it does in a
// stable queue; a step against it on a noisy machine narrows the interval to the wrong side of the
// peak, which the steps recorded show.
detail::PeakSearch find_peak(ServicePool& pool, const LoadPlan& plan, double capacity,
                             const std::function<bool()>& stop);

}  // namespace gbx

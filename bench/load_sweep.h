#pragma once

// The default suite's short load sweep (docs/load.md): concurrency 1 and 2, then Poisson arrivals at
// half, 0.8 and 1.2 times the capacity on one worker, on one argument set per variant, each level
// bounded to 0.05 s by default (5 warm-up requests included), so that the sweeps add a few seconds to the
// suite. It runs only where its numbers would be valid on the machine at hand (LoadPlan::only_where_valid:
// the harness's overhead within 5% of the kernel, no more workers than cores) and raises no console flag;
// --gbx_concurrency and the other load flags widen or replace it, with their flags (--gbx_concurrency=off
// drops it).
#include <cstdint>
#include <utility>
#include <vector>

#include <gbx/gbx.h>

namespace gbx::bench {

inline LoadPlan default_suite_sweep(std::vector<std::int64_t> only_args, double seconds_per_level = 0.05) {
  LoadPlan plan;
  plan.concurrency = {1, 2};
  plan.offered_load = {0.5, 0.8, 1.2};
  plan.requests = 1000;
  plan.warmup_requests = 5;
  plan.max_seconds_per_level = seconds_per_level;
  plan.only_where_valid = true;  // skipped where the harness would cost more than 5% of the kernel
  plan.applies_to = [only_args = std::move(only_args)](const std::vector<std::int64_t>& args) {
    return args == only_args;
  };
  return plan;
}

}  // namespace gbx::bench

#include "extensions/load/peak_search.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "stats/queueing_validity.h"

namespace gbx {

detail::PeakSearch find_peak(ServicePool& pool, const LoadPlan& plan, double capacity,
                             const std::function<bool()>& stop) {
  detail::PeakSearch search;
  search.lower_rate = 0.0;
  search.upper_rate = capacity;
  // Below this rate a level's time bound ends it before it has the queries its p99 needs: such a step
  // could only be INVALID for want of queries, which says nothing of the latency.
  const double needed = static_cast<double>(queries_for_percentile(0.99, plan.percentile_confidence).value_or(0) +
                                            std::max<std::int64_t>(plan.warmup_requests, 0));
  const double slowest = needed / plan.max_seconds_per_level;
  char text[200];
  for (std::int64_t step = 0; step < plan.peak_max_steps; ++step) {
    if (search.upper_rate - search.lower_rate <= plan.peak_resolution * capacity) break;
    if (stop && stop()) break;
    const double rate = 0.5 * (search.lower_rate + search.upper_rate);
    if (rate < slowest) {
      std::snprintf(text, sizeof text,
                    "the next step, %.4g/s, could not have the %.0f queries it needs within %g s a level "
                    "(--gbx_load_seconds)",
                    rate, needed, plan.max_seconds_per_level);
      search.stopped = text;
      break;
    }
    detail::OpenLoopLevel level = run_open_level(pool, plan, rate);
    level.offered_load = rate / capacity;
    if (!level.validity.enough_queries) {
      std::snprintf(text, sizeof text, "the step at %.4g/s had %lld queries, too few to judge its p99", rate,
                    static_cast<long long>(level.requests));
      search.stopped = text;
      search.steps.push_back(std::move(level));
      break;
    }
    if (level.validity.verdict == "VALID") {
      search.lower_rate = rate;
      search.peak_rate = rate;
    } else {
      search.upper_rate = rate;
      search.upper_tested = true;
    }
    search.steps.push_back(std::move(level));
  }
  return search;
}

}  // namespace gbx

#include "extensions/load/peak_search.h"

namespace gbx {

PeakSearch find_peak(ServicePool& pool, const LoadPlan& plan, double capacity, const std::function<bool()>& stop) {
  PeakSearch search;
  search.lower_rate = 0.0;
  search.upper_rate = capacity;
  for (std::int64_t step = 0; step < plan.peak_max_steps; ++step) {
    if (search.upper_rate - search.lower_rate <= plan.peak_resolution * capacity) break;
    if (stop && stop()) break;
    const double rate = 0.5 * (search.lower_rate + search.upper_rate);
    OpenLoopLevel level = run_open_level(pool, plan, rate);
    level.offered_load = rate / capacity;
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

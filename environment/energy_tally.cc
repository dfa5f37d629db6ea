#include "environment/energy_tally.h"

#include <cstdio>
#include <utility>

#include "stats/statistics.h"

namespace gbx {

EnergyTally::EnergyTally(std::string source, double resolution_joules)
    : source_(std::move(source)), resolution_joules_(resolution_joules) {}

void EnergyTally::before(std::optional<double> counter_joules, double seconds) {
  start_joules_ = counter_joules;
  start_seconds_ = seconds;
}

void EnergyTally::after(std::optional<double> counter_joules, double seconds, std::int64_t runs, std::int64_t samples) {
  if (!start_joules_ || !counter_joules || runs <= 0 || *counter_joules < *start_joules_) return;
  const double joules = *counter_joules - *start_joules_;
  joules_per_run_.push_back(joules / static_cast<double>(runs));
  joules_ += joules;
  seconds_ += seconds - start_seconds_;
  runs_ += runs;
  samples_ += samples;
  start_joules_.reset();
}

detail::EnergyUse EnergyTally::result() const {
  detail::EnergyUse use;
  use.source = source_;
  use.resolution_joules = resolution_joules_;
  use.samples = samples_;
  use.runs = runs_;
  use.joules = joules_;
  use.seconds = seconds_;
  if (joules_per_run_.empty()) {
    use.unavailable = "no sample was bracketed by two readings of the counter";
    return use;
  }
  if (joules_ <= 0.0) {
    // Not a measured zero: the counter's update period is longer than what was measured (NVML's
    // on an H200 moves every 0.1 s).
    char text[160];
    std::snprintf(text, sizeof text, "not resolved: the counter did not advance in the %.3g s measured", seconds_);
    use.unavailable = text;
    return use;
  }
  double sum = 0.0;
  for (double j : joules_per_run_) sum += j;
  use.joules_per_run = sum / static_cast<double>(joules_per_run_.size());
  if (const auto interval = student_t_interval(joules_per_run_, 0.95)) {
    use.lower = interval->lower;
    use.upper = interval->upper;
  }
  if (seconds_ > 0.0) use.average_watts = joules_ / seconds_;
  return use;
}

detail::EnergyUse energy_unavailable(const std::string& source, const std::string& why) {
  detail::EnergyUse use;
  use.source = source;
  use.unavailable = why;
  return use;
}

}  // namespace gbx

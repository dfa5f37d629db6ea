#include "environment/energy_tally.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "stats/statistics.h"

namespace gbx {

namespace {

constexpr double kNotResolved = std::numeric_limits<double>::quiet_NaN();  // written as null

}  // namespace

EnergyTally::EnergyTally(std::string source, double resolution_joules)
    : source_(std::move(source)), resolution_joules_(resolution_joules) {}

void EnergyTally::before(std::optional<double> counter_joules, double seconds) {
  start_joules_ = counter_joules;
  start_seconds_ = seconds;
}

void EnergyTally::after(std::optional<double> counter_joules, double seconds, std::int64_t runs) {
  if (!start_joules_ || !counter_joules || runs <= 0 || *counter_joules < *start_joules_) return;
  const double joules = *counter_joules - *start_joules_;
  joules_per_run_.push_back(joules / static_cast<double>(runs));
  joules_ += joules;
  seconds_ += seconds - start_seconds_;
  runs_ += runs;
  start_joules_.reset();
}

detail::EnergyUse EnergyTally::result() const {
  detail::EnergyUse use;
  use.source = source_;
  use.resolution_joules = resolution_joules_;
  use.samples = static_cast<std::int64_t>(joules_per_run_.size());
  use.runs = runs_;
  use.joules = joules_;
  use.seconds = seconds_;
  if (joules_per_run_.empty()) {
    use.unavailable = "no sample was bracketed by two readings of the counter";
    return use;
  }
  if (joules_ <= 0.0) {
    // Not a measured zero: the counter's update period is longer than what was measured.
    char text[160];
    std::snprintf(text, sizeof text, "not resolved: the counter did not advance in the %.3g s measured", seconds_);
    use.unavailable = text;
    use.joules = kNotResolved;
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

void SampleSpan::add(double start_seconds, double end_seconds, std::int64_t sample_runs) {
  if (samples == 0) start = start_seconds;
  end = end_seconds;
  inside += end_seconds - start_seconds;
  ++samples;
  runs += sample_runs;
}

detail::EnergyUse span_energy(const std::string& source, const std::vector<CounterReading>& readings,
                              const SampleSpan& span, double counter_unit) {
  detail::EnergyUse use;
  use.source = source;
  use.samples = span.samples;
  use.runs = span.runs;
  use.resolution_joules = counter_unit;
  use.joules = kNotResolved;
  // The counter's steps and how often it moves, over every reading of the benchmark (warm-up too).
  std::vector<double> moved_at;
  for (std::size_t i = 1; i < readings.size(); ++i) {
    const double rise = readings[i].joules - readings[i - 1].joules;
    if (rise <= 0.0) continue;
    use.resolution_joules = moved_at.empty() ? rise : std::min(use.resolution_joules, rise);
    moved_at.push_back(readings[i].seconds);
  }
  if (span.samples == 0 || span.runs <= 0) {
    use.unavailable = "no sample was measured";
    return use;
  }
  use.seconds = span.end - span.start;
  if (use.seconds > 0.0) use.duty = std::min(1.0, span.inside / use.seconds);

  std::optional<std::size_t> first, last;  // the readings that bracket the span
  for (std::size_t i = 0; i < readings.size(); ++i) {
    if (readings[i].seconds <= span.start) first = i;
    if (!last && readings[i].seconds >= span.end) last = i;
  }
  if (!first || !last) {
    use.unavailable = "no two readings of the counter bracketed the samples";
    return use;
  }
  int steps = 0;
  double largest = 0.0;
  std::optional<std::size_t> first_step, last_step;  // the readings that first saw a step
  for (std::size_t i = *first + 1; i <= *last; ++i) {
    const double rise = readings[i].joules - readings[i - 1].joules;
    if (rise < 0.0) {
      use.unavailable = "the counter went back during the samples";
      return use;
    }
    if (rise > 0.0) {
      ++steps;
      if (!first_step) first_step = i;
      last_step = i;
    }
    largest = std::max(largest, rise);
  }
  if (steps < kMinCounterSteps) {
    char text[240];
    if (moved_at.size() >= 2) {
      std::vector<double> gaps;
      for (std::size_t i = 1; i < moved_at.size(); ++i) gaps.push_back(moved_at[i] - moved_at[i - 1]);
      std::snprintf(text, sizeof text,
                    "not resolved: the span, %.3g s, held %d step(s) of the counter, which moves every %.3g s; "
                    "at least %d are needed",
                    use.seconds, steps, median(gaps).value_or(0.0), kMinCounterSteps);
    } else {
      std::snprintf(text, sizeof text,
                    "not resolved: the span, %.3g s, held %d step(s) of the counter, which moved %d time(s) in the "
                    "%.3g s read; at least %d are needed",
                    use.seconds, steps, static_cast<int>(moved_at.size()),
                    readings.empty() ? 0.0 : readings.back().seconds - readings.front().seconds, kMinCounterSteps);
    }
    use.unavailable = text;
    return use;
  }
  const double watts = (readings[*last_step].joules - readings[*first_step].joules) /
                       (readings[*last_step].seconds - readings[*first_step].seconds);
  const double bracketed = readings[*last].joules - readings[*first].joules;
  const double low = std::max(0.0, bracketed - 2.0 * largest), high = bracketed + 2.0 * largest;
  use.joules = std::clamp(watts * use.seconds, low, high);
  const auto runs = static_cast<double>(span.runs);
  use.joules_per_run = use.joules / runs;
  use.lower = low / runs;
  use.upper = high / runs;
  // The power itself, unless the bound clipped the energy (a counter that steps unevenly in time).
  if (use.seconds > 0.0) use.average_watts = use.joules / use.seconds;
  return use;
}

detail::EnergyUse energy_unavailable(const std::string& source, const std::string& why) {
  detail::EnergyUse use;
  use.source = source;
  use.unavailable = why;
  return use;
}

}  // namespace gbx

#include "extensions/warmup.h"

#include <algorithm>
#include <cmath>

#include "extensions/measurement.h"
#include "model/interrupt.h"
#include "stats/statistics.h"

namespace gbx::detail {

std::optional<std::size_t> change_point_in_window(const std::vector<double>& window, const SteadyStateRule& rule) {
  const std::size_t n = window.size();
  if (n < 8) return std::nullopt;
  const double center = median(window).value_or(0.0);
  if (!(center > 0.0)) return std::nullopt;
  // The noise from successive differences, which a trend or a step barely touches (a spread about
  // the median would count the very change sought as noise): the median |x[i+1] - x[i]| of normal
  // noise is 0.9539 sigma. sqrt(pi / 2) then turns sigma into a median's standard error.
  std::vector<double> steps;
  for (std::size_t i = 1; i < n; ++i) steps.push_back(std::abs(window[i] - window[i - 1]));
  const double sigma = median(steps).value_or(0.0) / 0.9539;
  const double median_se_factor = std::sqrt(std::acos(-1.0) / 2.0);
  std::optional<std::size_t> strongest;
  double strongest_gap = 0.0;
  // Splits leave at least a quarter of the window on each side: medians of fewer are too noisy. At
  // most 17 splits are tried, evenly spaced, so that a long window stays cheap.
  const std::size_t stride = std::max<std::size_t>(1, (n / 2) / 16);
  for (std::size_t k = n / 4; k <= n - n / 4; k += stride) {
    const double before = median({window.begin(), window.begin() + static_cast<std::ptrdiff_t>(k)}).value_or(0.0);
    const double after = median({window.begin() + static_cast<std::ptrdiff_t>(k), window.end()}).value_or(0.0);
    const double gap = std::abs(before - after);
    const double se = median_se_factor * sigma * std::sqrt(1.0 / double(k) + 1.0 / double(n - k));
    if (gap > rule.tolerance * center && gap > 3.0 * se && gap > strongest_gap) {
      strongest = k;
      strongest_gap = gap;
    }
  }
  return strongest;
}

WarmupOutcome warm_up_until_steady(const Protocol& protocol, Timer& timer, const MeasurementHooks& hooks,
                                   const std::function<bool()>& out_of_time, const SteadyStateRule& rule) {
  WarmupOutcome outcome;
  outcome.mode = "auto";
  outcome.max_samples = protocol.warmup_max_samples;
  const double target = protocol.batch_resolution_factor * timer.resolution_seconds();
  std::vector<double> per_run;
  std::vector<double> clocks;
  std::int64_t batch = 1;
  while (true) {
    if (outcome.samples >= protocol.warmup_max_samples) {
      outcome.stopped = "max_samples";
      outcome.steady = false;
      return outcome;
    }
    if (out_of_time()) {
      outcome.stopped = "max_time";
      outcome.steady = false;
      return outcome;
    }
    if (hooks.interrupted && hooks.interrupted()) throw Interrupted();
    timer.start();
    for (std::int64_t i = 0; i < batch; ++i) hooks.run();
    timer.stop();
    const double elapsed = timer.elapsed_seconds();
    outcome.runs += batch;
    ++outcome.samples;
    per_run.push_back(elapsed / static_cast<double>(batch));
    if (hooks.sm_clock_mhz) {
      if (const auto mhz = hooks.sm_clock_mhz()) clocks.push_back(*mhz);
    }
    // Samples shorter than the batch target are mostly timer noise: grow the batch, start afresh.
    if (elapsed < target && batch < (std::int64_t{1} << 30)) {
      batch *= 2;
      per_run.clear();
      clocks.clear();
      continue;
    }
    if (per_run.size() < rule.window) continue;
    // The recent samples are the later half of all so far, at least a window: a slow decay changes
    // little within a short window while still far from its end, but plainly within a long one.
    const std::size_t recent_count = std::max(rule.window, per_run.size() / 2);
    const std::vector<double> recent(per_run.end() - static_cast<std::ptrdiff_t>(recent_count), per_run.end());
    bool clock_steady = true;
    if (clocks.size() >= rule.window) {
      const auto [low, high] =
          std::minmax_element(clocks.end() - static_cast<std::ptrdiff_t>(rule.window), clocks.end());
      clock_steady = *high <= 0.0 || (*high - *low) / *high <= rule.clock_tolerance;
    }
    if (clock_steady && !change_point_in_window(recent, rule)) {
      outcome.stopped = "steady_state";
      return outcome;
    }
  }
}

}  // namespace gbx::detail

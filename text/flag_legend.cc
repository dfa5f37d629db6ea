#include "text/flag_legend.h"

#include <algorithm>

namespace gbx {

const std::vector<FlagMeaning>& flag_meanings() {
  static const std::vector<FlagMeaning> meanings = {
      {"outliers",
       "samples far from the rest: beyond 1.5 interquartile ranges outside the quartiles (extreme: beyond 3); the "
       "median and its interval are robust to a few"},
      {"slow_start", "the first samples were slower than the rest: the warm-up was too short"},
      {"autocorrelation",
       "each sample resembles the one before: the samples are not independent, so the interval is "
       "too narrow"},
      {"drift",
       "the second half of the samples has a different median than the first: the machine changed while "
       "measuring"},
      {"accuracy_failed", "the output differs from the float64 reference by more than the tolerance"},
      {"target_not_reached",
       "sampling stopped at a bound before the median's interval was as narrow as "
       "--gbx_target_rel_ci asked"},
      {"time_bound_reached", "--gbx_max_time stopped sampling before --gbx_min_samples samples were taken"},
      {"too_few_samples", "fewer samples than --gbx_min_samples were taken"},
      {"min_time_not_reached",
       "a bound stopped sampling before the samples spanned --gbx_min_time: raise --gbx_max_samples (or "
       "--gbx_max_time)"},
      {"below_resolution",
       "cold samples shorter than 100 timer resolutions: the timer's tick is a visible part of each"},
      {"above_peak",
       "faster than the peak it is a fraction of: the peak, the declared work or the working set is wrong "
       "(docs/energy.md)"},
      {"throttled_thermal", "the GPU slowed its clocks for temperature while the benchmark ran"},
      {"throttled_power", "the GPU slowed its clocks for power (cap, brake or hardware slowdown) while it ran"},
      {"clock_changed", "the GPU's SM clock moved by more than 2% while the benchmark ran"},
      {"no_steady_state",
       "--gbx_warmup=auto reached its bound before the timings (or the SM clock) settled: the samples may still "
       "be warming up"},
      {"littles_law_violated",
       "under load, throughput x latency disagreed with the mean number in flight (Little's law): the "
       "level's window was too short or cut requests, so its numbers are not to be trusted"},
      {"independent_littles_law_violated",
       "under load, throughput x latency disagreed with the number in flight read by a sampler apart from the "
       "completions: requests were miscounted, or the machine held the workers off (docs/load.md)"},
      {"harness_overhead",
       "under load, the harness's own cost per request (measured with a no-op) is above 5% of the service time: "
       "the level measures the harness as much as the kernel"},
  };
  return meanings;
}

std::string flag_meaning(const std::string& flag) {
  for (const auto& m : flag_meanings()) {
    if (m.flag == flag) return m.meaning;
  }
  return {};
}

std::string flag_legend(const std::vector<std::string>& flags) {
  std::size_t width = 0;
  for (const auto& m : flag_meanings()) {
    if (std::find(flags.begin(), flags.end(), m.flag) != flags.end()) width = std::max(width, m.flag.size());
  }
  std::string legend;
  for (const auto& m : flag_meanings()) {
    if (std::find(flags.begin(), flags.end(), m.flag) == flags.end()) continue;
    legend += "  " + m.flag + std::string(width - m.flag.size() + 2, ' ') + m.meaning + "\n";
  }
  return legend;
}

}  // namespace gbx

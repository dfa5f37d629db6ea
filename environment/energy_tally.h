#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/observations.h"

namespace gbx {

// Turns a cumulative energy counter, read before and after each sample, into energy per run. A
// counter that advances in coarse steps reads 0 for some samples and a whole step for others; the
// mean over samples stays right, and its interval says how well the steps average out. A counter
// that never advanced resolved nothing: no figure. Cheap counters only (RAPL through sysfs): the
// reads are on the measurement thread.
class EnergyTally {
 public:
  EnergyTally(std::string source, double resolution_joules);

  // counter_joules: the counter now; seconds: a wall clock. A sample whose reading failed is
  // dropped (after() with an empty counter).
  void before(std::optional<double> counter_joules, double seconds);
  void after(std::optional<double> counter_joules, double seconds, std::int64_t runs);

  detail::EnergyUse result() const;

 private:
  std::string source_;
  double resolution_joules_;
  std::optional<double> start_joules_;
  double start_seconds_ = 0.0;
  std::vector<double> joules_per_run_;  // one per sample
  double joules_ = 0.0;
  double seconds_ = 0.0;
  std::int64_t runs_ = 0;
};

// One reading of a cumulative energy counter, taken on a thread of its own (clock_sampler.h).
struct CounterReading {
  double seconds = 0.0;  // steady clock, when it was read
  double joules = 0.0;
};

// A benchmark's measured span: from its first sample's start to its last one's end (steady clock),
// and the time inside the samples' windows, the rest being the gaps between them.
struct SampleSpan {
  double start = 0.0;
  double end = 0.0;
  double inside = 0.0;
  std::int64_t samples = 0;
  std::int64_t runs = 0;

  void add(double start_seconds, double end_seconds, std::int64_t sample_runs);
};

// Fewer counter steps than this inside a span resolve nothing: with one step of error at each end
// (below), one step could be anything from nothing to three.
constexpr int kMinCounterSteps = 2;

// Energy per run over the span, from a counter read in time order on another thread. The counter is
// a step function that lags the energy by up to one update period (NVML's, on an H200: 0.1 s, steps
// of ~12 J idle, ~70 J busy). The power is the rise between the first and the last step seen inside
// the span over the time between them: whole update periods, so no lag at either end; joules is that
// power times the span. (The rise between the readings that bracket the span holds up to one period
// more at each end: on an H200 it read 702 W for a 0.136 s span.) lower and upper bound it by that
// bracketing rise less and plus the largest step seen, twice. The span holds the gaps between
// samples, so their idle energy is counted; duty says how much of the span the samples filled.
// resolution_joules: the smallest step seen; counter_unit: the counter's unit, where no step is seen.
detail::EnergyUse span_energy(const std::string& source, const std::vector<CounterReading>& readings,
                              const SampleSpan& span, double counter_unit);

// An EnergyUse that says only why there is none.
detail::EnergyUse energy_unavailable(const std::string& source, const std::string& why);

}  // namespace gbx

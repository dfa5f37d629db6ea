#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/observations.h"

namespace gbx {

// Turns a cumulative energy counter, read before and after each sample (or each group of
// consecutive samples), into energy per run. A counter that advances in coarse steps reads 0 for
// some windows and a whole step for others; the mean over windows stays right, and its interval
// says how well the steps average out. A counter that never advanced resolved nothing: no figure.
class EnergyTally {
 public:
  EnergyTally(std::string source, double resolution_joules);

  // counter_joules: the counter now; seconds: a wall clock. A sample whose reading failed is
  // dropped (after() with an empty counter).
  void before(std::optional<double> counter_joules, double seconds);
  // samples: how many samples the window since before() held.
  void after(std::optional<double> counter_joules, double seconds, std::int64_t runs, std::int64_t samples = 1);

  detail::EnergyUse result() const;

 private:
  std::string source_;
  double resolution_joules_;
  std::optional<double> start_joules_;
  double start_seconds_ = 0.0;
  std::vector<double> joules_per_run_;  // one per window
  std::int64_t samples_ = 0;
  double joules_ = 0.0;
  double seconds_ = 0.0;
  std::int64_t runs_ = 0;
};

// An EnergyUse that says only why there is none.
detail::EnergyUse energy_unavailable(const std::string& source, const std::string& why);

}  // namespace gbx

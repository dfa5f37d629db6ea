#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "model/peak.h"

namespace gbx {

// What a benchmark achieved per second, and how close that is to the machine's limit.
struct Throughput {
  std::optional<double> flops_per_second;
  std::optional<double> bytes_per_second;
  std::optional<double> arithmetic_intensity;  // FLOP per byte moved
  std::optional<double> peak_flops_per_second;
  std::optional<double> peak_bytes_per_second;
  std::optional<double> fraction_of_peak_flops;
  std::optional<double> fraction_of_peak_bandwidth;
  // The larger of the two: the resource the kernel is closest to exhausting, as on a roofline.
  std::optional<double> fraction_of_peak;
  std::string peak_unavailable;  // why there is no fraction, when there is none
  std::string roof;              // the bandwidth roof's level ("L1" .. "DRAM"); empty without roofs
  std::string flops_basis;       // "facts" or "calibrated": what the FLOP/s peak rests on
  bool roof_calibrated = false;
  // A fraction above 1 is not a fact: it says the peak, the declared work or the working set is wrong.
  std::string above_peak;  // why, when fraction_of_peak > 1; empty otherwise
};

// From the declared work per run, the median time per run, and the peak of the device it ran on
// (null when none is known). Zero declared work gives no rate for it. The working set (bytes the
// benchmark touches) picks the bandwidth roof among the peak's levels; unknown: DRAM.
Throughput compute_throughput(double flops_per_run, double bytes_per_run, double seconds_per_run, const Peak* peak,
                              const std::string& precision, std::optional<double> working_set_bytes = std::nullopt);

nlohmann::json throughput_json(const Throughput& throughput);

}  // namespace gbx

#include "reporters/throughput.h"

#include <algorithm>
#include <cmath>

#include "record/json_number.h"

namespace gbx {

Throughput compute_throughput(double flops_per_run, double bytes_per_run, double seconds_per_run, const Peak* peak,
                              const std::string& precision) {
  Throughput t;
  if (!(seconds_per_run > 0.0) || !std::isfinite(seconds_per_run)) {
    t.peak_unavailable = "no positive time per run";
    return t;
  }
  if (flops_per_run > 0.0) t.flops_per_second = flops_per_run / seconds_per_run;
  if (bytes_per_run > 0.0) t.bytes_per_second = bytes_per_run / seconds_per_run;
  if (flops_per_run > 0.0 && bytes_per_run > 0.0) t.arithmetic_intensity = flops_per_run / bytes_per_run;
  if (peak == nullptr) {
    t.peak_unavailable = "no peak is known for this device";
    return t;
  }
  if (!peak->unavailable.empty()) t.peak_unavailable = peak->unavailable;
  const auto flops_peak = peak->flops_per_second.find(precision);
  if (flops_peak != peak->flops_per_second.end() && flops_peak->second > 0.0) {
    t.peak_flops_per_second = flops_peak->second;
    if (t.flops_per_second) t.fraction_of_peak_flops = *t.flops_per_second / flops_peak->second;
  }
  if (peak->bytes_per_second && *peak->bytes_per_second > 0.0) {
    t.peak_bytes_per_second = peak->bytes_per_second;
    if (t.bytes_per_second) t.fraction_of_peak_bandwidth = *t.bytes_per_second / *peak->bytes_per_second;
  }
  if (t.fraction_of_peak_flops || t.fraction_of_peak_bandwidth) {
    t.fraction_of_peak = std::max(t.fraction_of_peak_flops.value_or(0.0), t.fraction_of_peak_bandwidth.value_or(0.0));
  } else if (t.peak_unavailable.empty()) {
    t.peak_unavailable = "no declared work, or no peak for precision " + precision;
  }
  return t;
}

nlohmann::json throughput_json(const Throughput& t) {
  nlohmann::json j = {{"gflops_per_second", t.flops_per_second ? finite_or_null(*t.flops_per_second / 1e9) : nullptr},
                      {"gbytes_per_second", t.bytes_per_second ? finite_or_null(*t.bytes_per_second / 1e9) : nullptr},
                      {"arithmetic_intensity", finite_or_null(t.arithmetic_intensity)},
                      {"peak_flops_per_second", finite_or_null(t.peak_flops_per_second)},
                      {"peak_bytes_per_second", finite_or_null(t.peak_bytes_per_second)},
                      {"fraction_of_peak_flops", finite_or_null(t.fraction_of_peak_flops)},
                      {"fraction_of_peak_bandwidth", finite_or_null(t.fraction_of_peak_bandwidth)},
                      {"fraction_of_peak", finite_or_null(t.fraction_of_peak)}};
  if (!t.fraction_of_peak) j["fraction_of_peak_unavailable"] = t.peak_unavailable;
  return j;
}

}  // namespace gbx

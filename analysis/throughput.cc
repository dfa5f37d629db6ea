#include "analysis/throughput.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "record/json_number.h"

namespace gbx {

namespace {

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", fraction * 100.0);
  return text;
}

// Why a fraction above 1 cannot be taken at its word.
std::string above_peak_reason(const Throughput& t, const std::string& precision) {
  std::string reason;
  if (t.fraction_of_peak_flops && *t.fraction_of_peak_flops > 1.0) {
    reason = percent(*t.fraction_of_peak_flops) + " of the " + precision + " FLOP/s peak (" +
             (t.flops_basis == "calibrated" ? "calibrated at start-up, which reads low on a loaded machine"
                                            : "from facts: the declared FLOP per run may be too high") +
             ")";
  }
  if (t.fraction_of_peak_bandwidth && *t.fraction_of_peak_bandwidth > 1.0) {
    const std::string roof = t.roof.empty() ? "bandwidth" : t.roof + " bandwidth";
    reason += (reason.empty() ? "" : "; ") + percent(*t.fraction_of_peak_bandwidth) + " of the " + roof + " roof (" +
              (t.roof_calibrated ? "calibrated at start-up, which reads low on a loaded machine; or " : "") +
              "the data sits in a faster level than the working set suggests, or the declared bytes are too many)";
  }
  return reason;
}

}  // namespace

Throughput compute_throughput(double flops_per_run, double bytes_per_run, double seconds_per_run, const Peak* peak,
                              const std::string& precision, std::optional<double> working_set_bytes) {
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
  t.flops_basis = peak->flops_basis;
  const auto flops_peak = peak->flops_per_second.find(precision);
  if (flops_peak != peak->flops_per_second.end() && flops_peak->second > 0.0) {
    t.peak_flops_per_second = flops_peak->second;
    if (t.flops_per_second) t.fraction_of_peak_flops = *t.flops_per_second / flops_peak->second;
  }
  std::optional<double> roof_bytes = peak->bytes_per_second;
  if (const BandwidthRoof* roof = roof_for(*peak, working_set_bytes)) {
    roof_bytes = roof->bytes_per_second;
    t.roof = roof->level;
    t.roof_calibrated = roof->calibrated;
  }
  if (roof_bytes && *roof_bytes > 0.0) {
    t.peak_bytes_per_second = roof_bytes;
    if (t.bytes_per_second) t.fraction_of_peak_bandwidth = *t.bytes_per_second / *roof_bytes;
  }
  if (t.fraction_of_peak_flops || t.fraction_of_peak_bandwidth) {
    t.fraction_of_peak = std::max(t.fraction_of_peak_flops.value_or(0.0), t.fraction_of_peak_bandwidth.value_or(0.0));
    if (*t.fraction_of_peak > 1.0) t.above_peak = above_peak_reason(t, precision);
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
  if (!t.roof.empty()) j["roof"] = {{"level", t.roof}, {"calibrated", t.roof_calibrated}};
  if (!t.flops_basis.empty()) j["flops_basis"] = t.flops_basis;
  j["above_peak"] = t.above_peak.empty() ? nlohmann::json() : nlohmann::json(t.above_peak);
  return j;
}

}  // namespace gbx

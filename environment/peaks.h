#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace gbx {

// The most a machine can do, against which a benchmark's throughput is a fraction.
struct Peak {
  std::optional<double> bytes_per_second;
  std::map<std::string, double> flops_per_second;  // by precision: fp64, fp32, tf32, fp16, bf16
  std::string method;                              // how the figures were obtained
  std::string unavailable;                         // why there are none, when there are none
};

// CPU: a short calibration on all cores of a copy larger than the last-level cache, and of
// independent multiply-add chains in fp32 and fp64, as this build compiles them.
Peak calibrate_cpu_peak();

// GPU: bandwidth from the memory clock and bus width (two transfers per clock), FLOP/s from the
// SM count and clock times a per-architecture table of FLOP per SM per clock for each precision.
Peak gpu_peak();

// FLOP per SM per clock, dense, for compute capability major.minor; absent when unknown.
std::optional<double> flops_per_sm_per_clock(int major, int minor, const std::string& precision);

nlohmann::json peak_json(const Peak& peak);

}  // namespace gbx

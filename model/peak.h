#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

// The peaks a benchmark's throughput is a fraction of, as values: environment/peaks.h computes them
// on the machine, the record carries them (gbx.environment.peaks), and the tools read them back.
namespace gbx {

// The clock a FLOP/s peak was computed at, which clock it is, and where that comes from.
struct PeakClock {
  double hz = 0.0;
  std::string source;
  std::string kind;  // "boost" (the highest clock), "base", or "sustained" (a datasheet's, or read during the run)
};

// The bandwidth of one level of the memory hierarchy. A benchmark whose working set fits in
// capacity_bytes is measured against this roof; the last roof (DRAM) has no capacity.
struct BandwidthRoof {
  std::string level;  // "L1", "L2", "L3", "DRAM"
  std::optional<std::int64_t> capacity_bytes;
  double bytes_per_second = 0.0;
  std::string source;
  bool calibrated = false;  // measured at start-up rather than computed from facts
};

// The most a machine can do, against which a benchmark's throughput is a fraction.
struct Peak {
  std::optional<double> bytes_per_second;
  std::map<std::string, double> flops_per_second;  // by precision: fp64, fp64_tensor, fp32, tf32, fp16, bf16
  std::map<std::string, PeakClock> clocks;         // GPU: by precision, the clock its FLOP/s assume
  std::string method;                              // how the figures were obtained
  std::string unavailable;                         // why there are none, when there are none
  // "facts" (computed from the hardware's specification) or "calibrated" (measured at start-up,
  // which a loaded machine reads low); empty for older records.
  std::string flops_basis;
  std::vector<BandwidthRoof> roofs;  // by level, smallest capacity first; empty: bytes_per_second only
  std::map<std::string, double> calibrated_flops_per_second;  // beside the facts, for comparison
  std::optional<double> calibrated_bytes_per_second;
  nlohmann::json facts;  // what the figures were computed from, unknowns named; null when none
};

// The roof a benchmark's working set runs under: the smallest level it fits in, DRAM otherwise or
// when the working set is unknown; null when the peak has no roofs.
const BandwidthRoof* roof_for(const Peak& peak, std::optional<double> working_set_bytes);

// The record's form of a peak (gbx.environment.peaks.cpu / .gpu), and back; a missing field reads as absent.
nlohmann::json peak_json(const Peak& peak);
Peak peak_from_json(const nlohmann::json& json);

}  // namespace gbx

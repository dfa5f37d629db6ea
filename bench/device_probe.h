#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gbx_probe {

// One measured figure and the check of its plausibility. A figure that fails the check is kept and
// marked (plausible false), never dropped: the claims that rest on it are then in doubt.
struct Figure {
  std::string name;
  std::optional<double> value;  // absent, with the reason in unavailable, when it could not be measured
  std::string unit;
  std::string expectation;  // what a plausible value is, in words
  bool plausible = false;
  std::string unavailable;
  std::string note;  // what was measured, how
};

// What the probe found, in the order measured.
struct ProbeResult {
  std::vector<Figure> figures;
  nlohmann::json l2_sweep = nlohmann::json::array();  // per working set: hot and cold read bandwidth
  nlohmann::json clocks = nlohmann::json::array();    // NVML's SM and memory clocks, by phase
  nlohmann::json device;                              // name, SMs, L2, peaks
  // An empty kernel between events behind the pre-roll (probe_timers): the start and exit that any
  // kernel timed between two events includes. The later parts allow for it.
  double kernel_start_exit_seconds = 0.0;
};

// A number with 4 significant digits, as the expectation texts quote measured values.
std::string number(double value);

// A figure whose value is checked by in_range; a value that is not finite counts as unavailable.
Figure checked(std::string name, double value, std::string unit, std::string expectation, bool in_range,
               std::string note = "");
Figure not_measured(std::string name, std::string unit, std::string expectation, std::string why);

// Each part of the probe appends its figures; every one needs a usable device (main checks first).
void probe_timers(ProbeResult& result);          // event resolution, %globaltimer tick, launch latency
void probe_known_duration(ProbeResult& result);  // a spin of known length: unbatched, and through the fixture
void probe_memory(ProbeResult& result);          // the L2 sweep and flush, read/write/copy against the peak
void probe_gemm(ProbeResult& result);            // register-blocked SGEMM against cuBLAS
void probe_nvml(ProbeResult& result);            // energy counter period and step, clocks, one call's cost

nlohmann::json probe_json(const ProbeResult& result);
std::string probe_markdown(const ProbeResult& result);

}  // namespace gbx_probe

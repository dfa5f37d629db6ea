#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gbx::detail {

// Energy one source (a GPU's NVML counter, the CPU's RAPL domains) saw during a benchmark's samples.
struct EnergyUse {
  std::string source;       // what was read, e.g. "nvmlDeviceGetTotalEnergyConsumption"
  std::string unavailable;  // why nothing was read; empty when it was
  // CPU (RAPL, read around each sample): the mean over samples of each sample's energy / its runs,
  // with a 95% Student-t interval (absent under 2 samples). GPU (NVML, read on the sampler thread):
  // the energy over the measured span / its runs, bounded by one counter step at each end.
  std::optional<double> joules_per_run;
  std::optional<double> lower, upper;
  std::optional<double> average_watts;  // joules / seconds
  double joules = 0.0;                  // in all samples (CPU) or the span (GPU); NaN where not resolved
  double seconds = 0.0;                 // the samples' windows, summed (CPU), or the span (GPU)
  std::int64_t samples = 0;
  std::int64_t runs = 0;
  double resolution_joules = 0.0;  // one step of the counter
  std::optional<double> duty;      // GPU: the fraction of the span inside the samples' windows
};

// A GPU's clocks and clock-event (throttle) reasons, sampled at a fixed rate during one benchmark.
struct ClockObservation {
  std::string unavailable;  // why there are no readings; empty when there are
  std::int64_t readings = 0;
  double period_seconds = 0.0;
  std::optional<double> sm_mhz_min, sm_mhz_max, sm_mhz_mean;
  std::optional<double> memory_mhz_min, memory_mhz_max;
  std::uint64_t throttle_mask = 0;            // every clock-event reason seen in any reading
  std::vector<std::string> throttle_reasons;  // their names
  std::int64_t thermal_readings = 0;          // readings with a thermal slowdown reason
  std::int64_t power_readings = 0;            // readings with a power cap, power brake or hardware slowdown
  bool clock_changed = false;                 // the SM clock moved by more than kClockChangeTolerance
};

// The SM clock's (max - min) / max beyond which a benchmark's clock is said to have changed:
// NVML reports clocks in steps of about 15 MHz, under 1% of any datacentre GPU's clock.
constexpr double kClockChangeTolerance = 0.02;

// Set by the benchmark observer (extensions/observer.h); absent when none ran.
struct Observations {
  std::optional<EnergyUse> gpu_energy;
  std::optional<EnergyUse> cpu_energy;
  std::optional<ClockObservation> clocks;
};

}  // namespace gbx::detail

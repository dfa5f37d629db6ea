#pragma once

#include <nlohmann/json.hpp>

#include <memory>

#include <optional>
#include <string>

namespace gbx {

struct NvmlDevice;  // NVML's opaque device handle

// NVML kept loaded and initialised for the readings taken during benchmarks (energy, clocks,
// clock-event reasons). Loaded with dlopen like read_nvml(); NVML's calls are thread-safe.
class NvmlSession {
 public:
  NvmlSession();
  ~NvmlSession();
  NvmlSession(const NvmlSession&) = delete;
  NvmlSession& operator=(const NvmlSession&) = delete;

  // Why NVML cannot be used; empty when it can.
  const std::string& unavailable() const { return unavailable_; }
  // The device with this "GPU-..." UUID; null, with the reason in why, when there is none.
  NvmlDevice* device(const std::string& uuid, std::string& why) const;
  // nvmlDeviceGetTotalEnergyConsumption: millijoules since the driver loaded (Volta and later).
  std::optional<unsigned long long> total_energy_mj(NvmlDevice* device, std::string& why) const;
  std::optional<unsigned> sm_clock_mhz(NvmlDevice* device) const;
  std::optional<unsigned> memory_clock_mhz(NvmlDevice* device) const;
  std::optional<unsigned long long> clock_event_reasons(NvmlDevice* device) const;

 private:
  struct Functions;
  std::unique_ptr<Functions> functions_;
  std::string unavailable_;
};

// Clock-event reason bits (nvml.h): a thermal slowdown, and a power cap, power brake or hardware
// slowdown (which NVML raises for temperature or power alike: counted with power).
constexpr unsigned long long kThermalReasons = 0x20 | 0x40;
constexpr unsigned long long kPowerReasons = 0x4 | 0x8 | 0x80;

// Per-GPU state that NVML reports and the CUDA runtime does not: clocks (current and max), power
// limit, persistence mode, temperature and clock-throttle reasons. NVML is loaded with
// dlopen("libnvidia-ml.so.1") at run time, so gbx neither builds nor links against it.
//
// Returns {"devices": {"GPU-<uuid>": {...}}} keyed by the UUID in NVML's "GPU-..." form (the form
// nvml_uuid() produces from CUDA's bytes), or {"devices": null, "devices_unavailable": reason} when
// NVML cannot be loaded or initialised. Within a device, each unreadable value is null with the
// reason under "<key>_unavailable".
nlohmann::json read_nvml();

// CUDA's 16 UUID bytes in NVML's text form: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
std::string nvml_uuid(const unsigned char (&bytes)[16]);

// The names of the bits set in an NVML clock-throttle-reasons mask (unknown bits as "bit_N").
nlohmann::json throttle_reason_names(unsigned long long mask);

}  // namespace gbx

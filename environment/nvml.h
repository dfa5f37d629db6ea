#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace gbx {

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

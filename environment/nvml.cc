#include "environment/nvml.h"

#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <utility>

namespace gbx {

namespace {

// The few NVML declarations used here, from nvml.h's stable ABI: gbx has no NVML headers at build
// time. Every function returns nvmlReturn_t (an int enum; 0 is NVML_SUCCESS).
using Device = struct NvmlDevice*;
using InitFn = int (*)();
using ShutdownFn = int (*)();
using ErrorStringFn = const char* (*)(int);
using CountFn = int (*)(unsigned*);
using HandleFn = int (*)(unsigned, Device*);
using UuidFn = int (*)(Device, char*, unsigned);
using ClockFn = int (*)(Device, int, unsigned*);
using UintFn = int (*)(Device, unsigned*);
using TemperatureFn = int (*)(Device, int, unsigned*);
using MaskFn = int (*)(Device, unsigned long long*);
using DriverVersionFn = int (*)(char*, unsigned);
using EnergyFn = int (*)(Device, unsigned long long*);
using UuidLookupFn = int (*)(const char*, Device*);

constexpr int kSuccess = 0;
constexpr int kClockGraphics = 0;
constexpr int kClockSm = 1;
constexpr int kClockMemory = 2;
constexpr int kTemperatureGpu = 0;

struct Nvml {
  void* library = nullptr;
  ErrorStringFn error_string = nullptr;

  template <typename Fn>
  Fn symbol(const char* name) const {
    return reinterpret_cast<Fn>(::dlsym(library, name));
  }
  std::string error(int code) const {
    const char* text = error_string ? error_string(code) : nullptr;
    return text ? std::string(text) : "NVML error " + std::to_string(code);
  }
};

// Sets object[key] from an NVML call that fills an unsigned, or null with NVML's reason.
template <typename Call>
void read_value(const Nvml& nvml, nlohmann::json& object, const std::string& key, bool found, Call call) {
  if (!found) {
    object[key] = nullptr;
    object[key + "_unavailable"] = "this NVML lacks the function";
    return;
  }
  unsigned value = 0;
  const int rc = call(&value);
  if (rc == kSuccess) {
    object[key] = value;
  } else {
    object[key] = nullptr;
    object[key + "_unavailable"] = nvml.error(rc);
  }
}

nlohmann::json device_json(const Nvml& nvml, Device device) {
  nlohmann::json out;
  const auto clock = nvml.symbol<ClockFn>("nvmlDeviceGetClockInfo");
  const auto max_clock = nvml.symbol<ClockFn>("nvmlDeviceGetMaxClockInfo");
  const std::pair<const char*, int> domains[] = {
      {"graphics", kClockGraphics}, {"sm", kClockSm}, {"memory", kClockMemory}};
  for (const auto& [name, domain] : domains) {
    const int which = domain;
    read_value(nvml, out, std::string("clock_") + name + "_mhz", clock != nullptr,
               [&](unsigned* v) { return clock(device, which, v); });
    read_value(nvml, out, std::string("max_clock_") + name + "_mhz", max_clock != nullptr,
               [&](unsigned* v) { return max_clock(device, which, v); });
  }
  const auto power_limit = nvml.symbol<UintFn>("nvmlDeviceGetEnforcedPowerLimit");
  read_value(nvml, out, "power_limit_mw", power_limit != nullptr, [&](unsigned* v) { return power_limit(device, v); });
  const auto persistence = nvml.symbol<UintFn>("nvmlDeviceGetPersistenceMode");
  read_value(nvml, out, "persistence_mode", persistence != nullptr,
             [&](unsigned* v) { return persistence(device, v); });
  if (out["persistence_mode"].is_number()) out["persistence_mode"] = out["persistence_mode"].get<unsigned>() == 1;
  const auto temperature = nvml.symbol<TemperatureFn>("nvmlDeviceGetTemperature");
  read_value(nvml, out, "temperature_c", temperature != nullptr,
             [&](unsigned* v) { return temperature(device, kTemperatureGpu, v); });

  // Renamed "clocks event reasons" in newer drivers; the old name remains as an alias.
  auto reasons = nvml.symbol<MaskFn>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!reasons) reasons = nvml.symbol<MaskFn>("nvmlDeviceGetCurrentClocksThrottleReasons");
  unsigned long long mask = 0;
  const int rc = reasons ? reasons(device, &mask) : -1;
  if (rc == kSuccess) {
    out["throttle_reasons_mask"] = mask;
    out["throttle_reasons"] = throttle_reason_names(mask);
  } else {
    const std::string why = reasons ? nvml.error(rc) : "this NVML lacks the function";
    out["throttle_reasons_mask"] = nullptr;
    out["throttle_reasons_mask_unavailable"] = why;
    out["throttle_reasons"] = nullptr;
    out["throttle_reasons_unavailable"] = why;
  }
  return out;
}

nlohmann::json unavailable(const std::string& reason) {
  return {{"devices", nullptr}, {"devices_unavailable", reason}};
}

}  // namespace

std::string nvml_uuid(const unsigned char (&b)[16]) {
  char text[64];
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

nlohmann::json throttle_reason_names(unsigned long long mask) {
  // Bit values of nvmlClocksEventReason* / nvmlClocksThrottleReason* in nvml.h.
  static const char* const names[] = {"gpu_idle",
                                      "applications_clocks_setting",
                                      "sw_power_cap",
                                      "hw_slowdown",
                                      "sync_boost",
                                      "sw_thermal_slowdown",
                                      "hw_thermal_slowdown",
                                      "hw_power_brake_slowdown",
                                      "display_clock_setting"};
  nlohmann::json out = nlohmann::json::array();
  for (unsigned bit = 0; bit < 64; ++bit) {
    if (!(mask & (1ULL << bit))) continue;
    out.push_back(bit < sizeof names / sizeof names[0] ? std::string(names[bit]) : "bit_" + std::to_string(bit));
  }
  return out;
}

struct NvmlSession::Functions {
  Nvml nvml;
  ShutdownFn shutdown = nullptr;
  UuidLookupFn by_uuid = nullptr;
  EnergyFn energy = nullptr;
  ClockFn clock = nullptr;
  MaskFn reasons = nullptr;
};

NvmlSession::NvmlSession() : functions_(std::make_unique<Functions>()) {
  Nvml& nvml = functions_->nvml;
  nvml.library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml.library) {
    const char* why = ::dlerror();
    unavailable_ = std::string("cannot load libnvidia-ml.so.1: ") + (why ? why : "unknown dlopen error");
    return;
  }
  nvml.error_string = nvml.symbol<ErrorStringFn>("nvmlErrorString");
  const auto init = nvml.symbol<InitFn>("nvmlInit_v2");
  functions_->shutdown = nvml.symbol<ShutdownFn>("nvmlShutdown");
  functions_->by_uuid = nvml.symbol<UuidLookupFn>("nvmlDeviceGetHandleByUUID");
  functions_->energy = nvml.symbol<EnergyFn>("nvmlDeviceGetTotalEnergyConsumption");
  functions_->clock = nvml.symbol<ClockFn>("nvmlDeviceGetClockInfo");
  functions_->reasons = nvml.symbol<MaskFn>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!functions_->reasons) functions_->reasons = nvml.symbol<MaskFn>("nvmlDeviceGetCurrentClocksThrottleReasons");
  if (!init || !functions_->shutdown || !functions_->by_uuid) {
    unavailable_ = "libnvidia-ml.so.1 lacks nvmlInit_v2 or nvmlDeviceGetHandleByUUID";
  } else if (const int rc = init(); rc != kSuccess) {
    unavailable_ = "nvmlInit failed: " + nvml.error(rc);
    functions_->shutdown = nullptr;
  }
}

NvmlSession::~NvmlSession() {
  if (unavailable_.empty() && functions_->shutdown) functions_->shutdown();
}

NvmlDevice* NvmlSession::device(const std::string& uuid, std::string& why) const {
  if (!unavailable_.empty()) {
    why = unavailable_;
    return nullptr;
  }
  Device device = nullptr;
  if (const int rc = functions_->by_uuid(uuid.c_str(), &device); rc != kSuccess) {
    why = "NVML has no device " + uuid + ": " + functions_->nvml.error(rc);
    return nullptr;
  }
  return device;
}

std::optional<unsigned long long> NvmlSession::total_energy_mj(NvmlDevice* device, std::string& why) const {
  if (!functions_->energy) {
    why = "this NVML lacks nvmlDeviceGetTotalEnergyConsumption";
    return std::nullopt;
  }
  unsigned long long millijoules = 0;
  if (const int rc = functions_->energy(device, &millijoules); rc != kSuccess) {
    why = "nvmlDeviceGetTotalEnergyConsumption: " + functions_->nvml.error(rc) + " (Volta or later is needed)";
    return std::nullopt;
  }
  return millijoules;
}

std::optional<unsigned> NvmlSession::sm_clock_mhz(NvmlDevice* device) const {
  unsigned mhz = 0;
  if (!functions_->clock || functions_->clock(device, kClockSm, &mhz) != kSuccess) return std::nullopt;
  return mhz;
}

std::optional<unsigned> NvmlSession::memory_clock_mhz(NvmlDevice* device) const {
  unsigned mhz = 0;
  if (!functions_->clock || functions_->clock(device, kClockMemory, &mhz) != kSuccess) return std::nullopt;
  return mhz;
}

std::optional<unsigned long long> NvmlSession::clock_event_reasons(NvmlDevice* device) const {
  unsigned long long mask = 0;
  if (!functions_->reasons || functions_->reasons(device, &mask) != kSuccess) return std::nullopt;
  return mask;
}

nlohmann::json read_nvml() {
  Nvml nvml;
  nvml.library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml.library) {
    const char* why = ::dlerror();
    return unavailable(std::string("cannot load libnvidia-ml.so.1: ") + (why ? why : "unknown dlopen error"));
  }
  nvml.error_string = nvml.symbol<ErrorStringFn>("nvmlErrorString");
  const auto init = nvml.symbol<InitFn>("nvmlInit_v2");
  const auto shutdown = nvml.symbol<ShutdownFn>("nvmlShutdown");
  const auto count = nvml.symbol<CountFn>("nvmlDeviceGetCount_v2");
  const auto handle = nvml.symbol<HandleFn>("nvmlDeviceGetHandleByIndex_v2");
  const auto uuid = nvml.symbol<UuidFn>("nvmlDeviceGetUUID");
  nlohmann::json result;
  if (!init || !shutdown || !count || !handle || !uuid) {
    result = unavailable("libnvidia-ml.so.1 lacks nvmlInit_v2 or the device-enumeration functions");
  } else if (const int rc = init(); rc != kSuccess) {
    result = unavailable("nvmlInit failed: " + nvml.error(rc));
  } else {
    unsigned n = 0;
    if (const int count_rc = count(&n); count_rc != kSuccess) {
      result = unavailable("nvmlDeviceGetCount failed: " + nvml.error(count_rc));
    } else {
      result["devices"] = nlohmann::json::object();
      for (unsigned i = 0; i < n; ++i) {
        Device device = nullptr;
        char text[96] = {};
        if (handle(i, &device) != kSuccess || uuid(device, text, sizeof text) != kSuccess) continue;
        result["devices"][text] = device_json(nvml, device);
      }
    }
    shutdown();
  }
  // NVML stays loaded: unloading a driver library mid-process buys nothing and has bitten others.
  return result;
}

}  // namespace gbx

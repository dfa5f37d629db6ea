// A stand-in libnvidia-ml.so.1 with one device, so that gbx's NVML code runs without a GPU.
// Signatures follow nvml.h; the max-clock query answers NVML_ERROR_NOT_SUPPORTED (3).
//
// Scripts: FAKE_NVML_ENERGY_MJ, FAKE_NVML_SM_MHZ, FAKE_NVML_MEMORY_MHZ and FAKE_NVML_REASONS each
// hold a comma-separated series ("1000,1500,2500"); each call answers the next value and the last
// repeats. Changing a variable restarts its series. Without FAKE_NVML_ENERGY_MJ the energy counter
// is Not Supported, as on a pre-Volta GPU; without the others the clocks are fixed (below).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Series {
  std::string text;
  std::vector<unsigned long long> values;
  std::size_t next = 0;
};

std::mutex series_mutex;  // the clock sampler reads from a thread of its own

// The next value of the series in environment variable name; false when it is unset.
bool next_value(const char* name, unsigned long long& value) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return false;
  std::lock_guard<std::mutex> lock(series_mutex);
  static std::map<std::string, Series> all;
  Series& series = all[name];
  if (series.text != text) {
    series = Series{text, {}, 0};
    for (const char* at = text; *at != '\0';) {
      char* end = nullptr;
      series.values.push_back(std::strtoull(at, &end, 0));
      at = *end == ',' ? end + 1 : end + std::strlen(end);
    }
  }
  value = series.values[std::min(series.next, series.values.size() - 1)];
  ++series.next;
  return true;
}

const char* const kUuid = "GPU-00112233-4455-6677-8899-aabbccddeeff";

}  // namespace

extern "C" {

struct nvmlDevice_st {};
static nvmlDevice_st the_device;

const char* nvmlErrorString(int code) {
  return code == 3 ? "Not Supported" : code == 6 ? "Not Found" : "Unknown Error";
}
int nvmlInit_v2() { return 0; }
int nvmlShutdown() { return 0; }
int nvmlDeviceGetCount_v2(unsigned* count) {
  *count = 1;
  return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned, nvmlDevice_st** device) {
  *device = &the_device;
  return 0;
}
int nvmlDeviceGetHandleByUUID(const char* uuid, nvmlDevice_st** device) {
  if (std::strcmp(uuid, kUuid) != 0) return 6;
  *device = &the_device;
  return 0;
}
int nvmlDeviceGetUUID(nvmlDevice_st*, char* uuid, unsigned length) {
  std::strncpy(uuid, kUuid, length);
  return 0;
}
int nvmlDeviceGetClockInfo(nvmlDevice_st*, int domain, unsigned* mhz) {
  unsigned long long scripted = 0;
  if ((domain == 1 && next_value("FAKE_NVML_SM_MHZ", scripted)) ||
      (domain == 2 && next_value("FAKE_NVML_MEMORY_MHZ", scripted))) {
    *mhz = static_cast<unsigned>(scripted);
  } else {
    *mhz = 1000u + static_cast<unsigned>(domain);
  }
  return 0;
}
int nvmlDeviceGetMaxClockInfo(nvmlDevice_st*, int, unsigned*) { return 3; }
int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_st*, unsigned* milliwatts) {
  *milliwatts = 700000;
  return 0;
}
int nvmlDeviceGetPersistenceMode(nvmlDevice_st*, unsigned* mode) {
  *mode = 1;
  return 0;
}
int nvmlDeviceGetTemperature(nvmlDevice_st*, int, unsigned* celsius) {
  *celsius = 41;
  return 0;
}
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_st*, unsigned long long* mask) {
  if (!next_value("FAKE_NVML_REASONS", *mask)) *mask = 0x5;  // gpu_idle | sw_power_cap
  return 0;
}
int nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_st*, unsigned long long* millijoules) {
  return next_value("FAKE_NVML_ENERGY_MJ", *millijoules) ? 0 : 3;
}
}

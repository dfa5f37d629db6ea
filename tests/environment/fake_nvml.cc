// A stand-in libnvidia-ml.so.1 with one device, so that read_nvml()'s parsing runs without a GPU.
// Signatures follow nvml.h; the max-clock query answers NVML_ERROR_NOT_SUPPORTED (3).
#include <cstring>

extern "C" {

struct nvmlDevice_st {};
static nvmlDevice_st the_device;

const char* nvmlErrorString(int code) { return code == 3 ? "Not Supported" : "Unknown Error"; }
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
int nvmlDeviceGetUUID(nvmlDevice_st*, char* uuid, unsigned length) {
  std::strncpy(uuid, "GPU-00112233-4455-6677-8899-aabbccddeeff", length);
  return 0;
}
int nvmlDeviceGetClockInfo(nvmlDevice_st*, int domain, unsigned* mhz) {
  *mhz = 1000u + static_cast<unsigned>(domain);
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
  *mask = 0x5;  // gpu_idle | sw_power_cap
  return 0;
}
}

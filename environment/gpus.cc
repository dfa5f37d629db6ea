// The CUDA devices as the runtime and NVML see them, and whether a device is usable at all.
#include <cstring>
#include <string>

#include "environment/environment_detail.h"
#include "environment/nvml.h"

#ifdef GBX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "extensions/cuda_device.h"
#endif

namespace gbx::environment_detail {
namespace {

// NVML's view of one device at one moment, or null with the reason. Unused when built without CUDA.
[[maybe_unused]] void put_nvml(Json& gpu, const std::string& key, const Json& readings, const std::string& uuid) {
  if (!readings.is_object() || !readings["devices"].is_object()) {
    put(gpu, key, nullptr,
        readings.is_object() && readings.contains("devices_unavailable")
            ? readings["devices_unavailable"].get<std::string>()
            : "NVML was not read");
  } else if (!readings["devices"].contains(uuid)) {
    put(gpu, key, nullptr, "NVML does not list " + uuid);
  } else {
    gpu[key] = readings["devices"][uuid];
  }
}

}  // namespace

Json gpus_json(Json& environment, const Json& nvml_start, const Json& nvml_end, const CudaVersions& versions) {
  Json gpus = Json::array();
#ifdef GBX_HAVE_CUDA
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    environment["gpus_unavailable"] = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(rc);
    (void)cudaGetLastError();  // clear the sticky error for whoever asks next
    return gpus;
  }
  for (int i = 0; i < count; ++i) {
    Json gpu;
    gpu["index"] = i;
    cudaDeviceProp prop{};
    if (const cudaError_t prop_rc = cudaGetDeviceProperties(&prop, i); prop_rc != cudaSuccess) {
      put(gpu, "name", nullptr, std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(prop_rc));
      gpus.push_back(gpu);
      continue;
    }
    unsigned char bytes[16];
    std::memcpy(bytes, prop.uuid.bytes, sizeof bytes);
    const std::string uuid = nvml_uuid(bytes);
    gpu["name"] = prop.name;
    gpu["uuid"] = uuid;
    char bus[32] = {};
    put(gpu, "pci_bus_id", cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess ? Json(bus) : Json(nullptr),
        "cudaDeviceGetPCIBusId failed");
    gpu["compute_capability"] = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    gpu["sm_count"] = prop.multiProcessorCount;
    gpu["memory_bytes"] = static_cast<unsigned long long>(prop.totalGlobalMem);
    gpu["memory_bus_width_bits"] = prop.memoryBusWidth;
    gpu["l2_cache_bytes"] = prop.l2CacheSize;
    gpu["ecc_enabled"] = prop.ECCEnabled != 0;
    put(gpu, "driver_version", versions.driver);
    put(gpu, "runtime_version", versions.runtime);
    put_nvml(gpu, "nvml_at_start", nvml_start, uuid);
    put_nvml(gpu, "nvml_at_end", nvml_end, uuid);
    gpus.push_back(gpu);
  }
#else
  (void)nvml_start;
  (void)nvml_end;
  (void)versions;
  environment["gpus_unavailable"] = "gbx was built without CUDA";
#endif
  return gpus;
}

Json cuda_json(const CudaVersions& versions) {
  Json cuda;
#ifdef GBX_HAVE_CUDA
  const std::string reason = cuda_unavailable_reason();
  cuda["device_available"] = reason.empty();
  if (!reason.empty()) cuda["device_unavailable"] = reason;
#else
  cuda["device_available"] = false;
  cuda["device_unavailable"] = "gbx was built without CUDA";
#endif
  put(cuda, "runtime_version", versions.runtime);
  put(cuda, "driver_version", versions.driver);
  return cuda;
}

}  // namespace gbx::environment_detail

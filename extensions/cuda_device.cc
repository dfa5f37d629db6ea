#include "extensions/cuda_device.h"

#include <cuda_runtime_api.h>

#include "extensions/cuda_unavailable.h"

namespace gbx {

UnavailableReason cuda_unavailable() {
  CudaProbe probe;
  const cudaError_t status = cudaGetDeviceCount(&probe.device_count);
  probe.status_name = cudaGetErrorName(status);
  probe.status_description = cudaGetErrorString(status);
  if (status == cudaSuccess && probe.device_count > 0) return {};
  if (cudaDriverGetVersion(&probe.driver_version) != cudaSuccess) probe.driver_version = 0;
  if (cudaRuntimeGetVersion(&probe.runtime_version) != cudaSuccess) probe.runtime_version = CUDART_VERSION;
  probe.nvidia_pci_device = nvidia_pci_device_present();
  return classify_cuda_probe(probe);
}

std::string cuda_unavailable_reason() { return cuda_unavailable().text; }

}  // namespace gbx

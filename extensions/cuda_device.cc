#include "extensions/cuda_device.h"

#include <cuda_runtime_api.h>

namespace gbx {

std::string cuda_unavailable_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    return std::string("no usable CUDA device: ") + cudaGetErrorName(status) + ": " + cudaGetErrorString(status);
  }
  if (count == 0) return "no usable CUDA device: the runtime reports 0 devices";
  return {};
}

}  // namespace gbx

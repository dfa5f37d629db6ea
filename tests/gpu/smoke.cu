// The first thing scripts/gpu-check runs on a GPU machine, compiled on its own with nvcc before
// anything else is built: the runtime and driver versions, the device's facts, and one tiny kernel
// whose result is checked. Exit 0: the device works; 77: no usable device (with the runtime's
// reason); 1: a device that fails.
#include <cuda_runtime_api.h>

#include <cstdio>

namespace {

__global__ void write_index_squares(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i;
}

bool ok(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return true;
  std::printf("gpu-smoke: %s failed: %s: %s\n", what, cudaGetErrorName(status), cudaGetErrorString(status));
  return false;
}

int attribute(cudaDeviceAttr which, int device) {
  int value = -1;
  return cudaDeviceGetAttribute(&value, which, device) == cudaSuccess ? value : -1;
}

}  // namespace

int main() {
  int runtime = 0;
  int driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  std::printf("gpu-smoke: CUDA runtime %d.%d, driver supports CUDA %d.%d\n", runtime / 1000, runtime % 1000 / 10,
              driver / 1000, driver % 1000 / 10);
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::printf("gpu-smoke: no usable CUDA device: %s\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "the runtime reports 0 devices");
    return 77;
  }
  cudaDeviceProp properties{};
  if (!ok(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties")) return 1;
  std::printf(
      "gpu-smoke: %d device(s); 0: %s, sm_%d%d, %d SMs, SM clock up to %d MHz, memory clock %d MHz x %d bits, "
      "L2 %d KiB, %.1f GiB\n",
      count, properties.name, properties.major, properties.minor, properties.multiProcessorCount,
      attribute(cudaDevAttrClockRate, 0) / 1000, attribute(cudaDevAttrMemoryClockRate, 0) / 1000,
      attribute(cudaDevAttrGlobalMemoryBusWidth, 0), attribute(cudaDevAttrL2CacheSize, 0) / 1024,
      static_cast<double>(properties.totalGlobalMem) / (1u << 30));

  constexpr int kCount = 1000;
  int* device_values = nullptr;
  if (!ok(cudaMalloc(&device_values, kCount * sizeof(int)), "cudaMalloc")) return 1;
  write_index_squares<<<(kCount + 255) / 256, 256>>>(device_values, kCount);
  if (!ok(cudaGetLastError(), "the kernel launch")) return 1;
  static int values[kCount];
  if (!ok(cudaMemcpy(values, device_values, sizeof(values), cudaMemcpyDeviceToHost), "cudaMemcpy")) return 1;
  cudaFree(device_values);
  for (int i = 0; i < kCount; ++i) {
    if (values[i] != i * i) {
      std::printf("gpu-smoke: the kernel wrote %d at %d, expected %d\n", values[i], i, i * i);
      return 1;
    }
  }
  std::printf("gpu-smoke: a kernel ran and wrote what it should\n");
  return 0;
}

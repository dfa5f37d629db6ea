// The first thing scripts/gpu-check runs on a GPU machine, compiled on its own with nvcc before
// anything else is built: the runtime and driver versions, cuBLAS's version (it compiles against
// cublas_v2.h and links libcublas, which the build needs: a toolkit without them fails here, in
// seconds), the device's facts, one tiny kernel whose result is checked, and a cuBLAS handle made
// on it. Exit 0: the device works; 77: no usable device (with the runtime's reason); 1: a device
// or a cuBLAS that fails.
#include <cublas_v2.h>
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
  int cublas_major = -1;
  int cublas_minor = -1;
  int cublas_patch = -1;
  if (cublasGetProperty(MAJOR_VERSION, &cublas_major) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(MINOR_VERSION, &cublas_minor) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(PATCH_LEVEL, &cublas_patch) != CUBLAS_STATUS_SUCCESS) {
    std::printf("gpu-smoke: cublasGetProperty failed: libcublas is not usable\n");
    return 1;
  }
  std::printf("gpu-smoke: cuBLAS %d.%d.%d (headers %d.%d)\n", cublas_major, cublas_minor, cublas_patch,
              CUBLAS_VER_MAJOR, CUBLAS_VER_MINOR);
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
  cublasHandle_t handle = nullptr;
  if (const cublasStatus_t made = cublasCreate(&handle); made != CUBLAS_STATUS_SUCCESS) {
    std::printf("gpu-smoke: cublasCreate failed: %s\n", cublasGetStatusString(made));
    return 1;
  }
  cublasDestroy(handle);
  std::printf("gpu-smoke: a cuBLAS handle was made on the device\n");
  return 0;
}

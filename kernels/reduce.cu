#include <cub/device/device_reduce.cuh>

#include <stdexcept>

#include "extensions/cuda_check.h"
#include "kernels/grid.h"
#include "kernels/reduce_cuda.h"
#include "kernels/reduce_kernels.cuh"

namespace gbx::kernels {

namespace {
// A multiple of the warp size, as reduce_warp_shuffle_kernel requires.
constexpr unsigned kThreads = 256;
static_assert(kThreads % kWarpSize == 0 && kThreads <= 1024);

// A few waves fill the device; more blocks would only add atomics.
unsigned blocks_for(std::size_t n) { return grid_stride_blocks(n, kThreads, 4); }
}  // namespace

void launch_reduce_atomic(const float* x, std::size_t n, float* sum, cudaStream_t stream) {
  GBX_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(float), stream));
  reduce_atomic_kernel<<<blocks_for(n), kThreads, 0, stream>>>(x, n, sum);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_reduce_warp_shuffle(const float* x, std::size_t n, float* sum, cudaStream_t stream) {
  GBX_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(float), stream));
  reduce_warp_shuffle_kernel<<<blocks_for(n), kThreads, 0, stream>>>(x, n, sum);
  GBX_CUDA_CHECK(cudaGetLastError());
}

// The null temp pointer makes CUB report the bytes it needs instead of reducing.
std::size_t reduce_cub_temp_bytes(std::size_t n) {
  std::size_t bytes = 0;
  GBX_CUDA_CHECK(
      cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr), n));
  return bytes;
}

// A null temp would make CUB answer the size query again and sum nothing, without an error.
void launch_reduce_cub(const float* x, std::size_t n, float* sum, void* temp, std::size_t temp_bytes,
                       cudaStream_t stream) {
  if (temp == nullptr) throw std::invalid_argument("launch_reduce_cub: no temporary storage given");
  GBX_CUDA_CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, x, sum, n, stream));
}

}  // namespace gbx::kernels

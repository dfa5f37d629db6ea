// The reduce family on the device: its kernels, then their launchers (kernels/reduce_cuda.h).
#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <stdexcept>

#include "extensions/cuda_check.h"
#include "kernels/grid.h"
#include "kernels/reduce_cuda.h"

namespace gbx::kernels {

constexpr unsigned kWarpSize = 32;

// A grid-stride loop, so any grid size covers any n; consecutive threads read consecutive floats.
__device__ inline float sum_grid_stride_slice(const float* __restrict__ x, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  float partial = 0.0f;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) partial += x[i];
  return partial;
}

// *sum must be zero before the launch.
__global__ void reduce_atomic_kernel(const float* __restrict__ x, std::size_t n, float* sum) {
  atomicAdd(sum, sum_grid_stride_slice(x, n));
}

// Lane 0 ends with the warp's total; the other lanes hold partial totals.
__device__ inline float warp_sum(float value) {
  for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  return value;
}

// blockDim.x must be a multiple of the warp size (whole warps take part in the shuffles), at most
// 1024 (one shared float per warp). *sum must be zero before the launch.
__global__ void reduce_warp_shuffle_kernel(const float* __restrict__ x, std::size_t n, float* sum) {
  __shared__ float warp_totals[1024 / kWarpSize];
  const unsigned lane = threadIdx.x % kWarpSize;
  const unsigned warp = threadIdx.x / kWarpSize;
  const float warp_total = warp_sum(sum_grid_stride_slice(x, n));
  if (lane == 0) warp_totals[warp] = warp_total;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = blockDim.x / kWarpSize;
    const float block_total = warp_sum(lane < warps ? warp_totals[lane] : 0.0f);
    if (lane == 0) atomicAdd(sum, block_total);
  }
}

// ---- Launchers ----------------------------------------------------------------------------------

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

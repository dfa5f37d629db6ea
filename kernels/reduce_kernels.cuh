#pragma once

#include <cstddef>

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

}  // namespace gbx::kernels

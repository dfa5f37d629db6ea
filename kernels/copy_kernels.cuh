#pragma once

#include <cstddef>

namespace gbx::kernels {

// A grid-stride loop, so any grid size covers any n.
__global__ void copy_scalar_kernel(float* __restrict__ dst, const float* __restrict__ src, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = src[i];
}

// 16-byte loads and stores halve the instructions per byte; the tail that does not fill a
// float4 is copied by the first threads.
__global__ void copy_vectorised_kernel(float* __restrict__ dst, const float* __restrict__ src, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t quads = n / 4;
  const auto* src4 = reinterpret_cast<const float4*>(src);
  auto* dst4 = reinterpret_cast<float4*>(dst);
  for (std::size_t i = first; i < quads; i += stride) dst4[i] = src4[i];
  const std::size_t tail = quads * 4 + first;
  if (tail < n) dst[tail] = src[tail];
}

}  // namespace gbx::kernels

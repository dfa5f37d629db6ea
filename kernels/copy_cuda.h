#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gbx::kernels {

// Device-to-device copies of n floats, enqueued on stream: memory-bound, so they show how close a
// kernel gets to the device's bandwidth. The CPU twin is copy_reference (kernels/copy.h).
void launch_copy_scalar(float* dst, const float* src, std::size_t n, cudaStream_t stream);
void launch_copy_vectorised(float* dst, const float* src, std::size_t n, cudaStream_t stream);

}  // namespace gbx::kernels

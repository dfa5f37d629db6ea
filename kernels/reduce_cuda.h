#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gbx::kernels {

// CUDA sums of n floats, enqueued on stream: x is device memory, and the sum is written to the one
// float at *sum on the device. The CPU twin is reduce_reference (kernels/reduce.h). The first two
// clear *sum with cudaMemsetAsync before their kernel, so that clearing is part of every run.

// Each thread sums a grid-stride slice in a register, then adds it to *sum with one atomicAdd:
// the baseline, in which every thread contends for the same address.
void launch_reduce_atomic(const float* x, std::size_t n, float* sum, cudaStream_t stream);

// Each block reduces its threads' grid-stride slices with warp shuffles (no shared-memory tree
// except one float per warp), then adds its total to *sum with one atomicAdd: a few hundred atomics
// instead of one per thread, and no second kernel or scratch memory. The order in which the blocks'
// totals arrive varies, so the last bits of the sum may differ from run to run.
void launch_reduce_warp_shuffle(const float* x, std::size_t n, float* sum, cudaStream_t stream);

// cub::DeviceReduce::Sum, with temporary storage the caller allocates (so that a fixture counts it)
// of at least reduce_cub_temp_bytes(n) bytes. CUB combines its partial sums in a second pass, not
// with atomics, so its result is the same from run to run.
std::size_t reduce_cub_temp_bytes(std::size_t n);
void launch_reduce_cub(const float* x, std::size_t n, float* sum, void* temp, std::size_t temp_bytes,
                       cudaStream_t stream);

}  // namespace gbx::kernels

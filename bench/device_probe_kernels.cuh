#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gbx_probe {

// Does nothing: what a launch costs, without the kernel.
void launch_empty(cudaStream_t stream);

// One thread reads %globaltimer until it has seen count changes (or a bounded number of reads),
// writing each change's size in ns to deltas[0..count) and the number seen to deltas[count].
void launch_global_timer_deltas(std::uint64_t* deltas, int count, cudaStream_t stream);

// Memory-bound passes over n floats with 16-byte accesses (n a multiple of 4): a read whose sum is
// written only if it is impossible, a write of a constant, and a copy.
void launch_read(const float* data, std::size_t n, float* out, cudaStream_t stream);
void launch_write(float* data, std::size_t n, cudaStream_t stream);
// The read, passes times over the same n floats in one launch, past L1 (the L2 sweep).
void launch_read_passes(const float* data, std::size_t n, int passes, float* out, cudaStream_t stream);
void launch_copy(float* dst, const float* src, std::size_t n, cudaStream_t stream);

}  // namespace gbx_probe

#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gbx_test {

// Spins one thread until the device's global timer has advanced by nanoseconds: a kernel whose
// duration is known, for checking what the timers measure. __nanosleep alone sleeps anywhere in
// [0, 2 t], so the loop reads %globaltimer and sleeps only in short steps.
void launch_spin_for(std::uint64_t nanoseconds, cudaStream_t stream);

// Reads every float of a buffer once and writes their sum to *out: its time depends on whether
// the buffer is still in L2.
void launch_read_all(const float* data, std::size_t count, float* out, cudaStream_t stream);

}  // namespace gbx_test

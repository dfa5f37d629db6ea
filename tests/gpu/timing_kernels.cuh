#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gbx_test {

// The longest a spin overshoots its target: __nanosleep(t) sleeps anywhere in [0, 2t], so the loop
// sleeps in steps of kSpinStepNanoseconds and reads %globaltimer after each.
constexpr std::uint64_t kSpinStepNanoseconds = 200;

// Spins one thread until the device's global timer has advanced by nanoseconds: a kernel whose
// duration is known, for checking what the timers measure, and a way to keep a stream busy while
// the host enqueues what follows (so that a start event is not recorded on an idle stream).
void launch_spin_for(std::uint64_t nanoseconds, cudaStream_t stream);

// Reads every float of a buffer once and writes their sum to *out only if it is an impossible value:
// its time depends on whether the buffer is still in L2.
void launch_read_all(const float* data, std::size_t count, float* out, cudaStream_t stream);

}  // namespace gbx_test

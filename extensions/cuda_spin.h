#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gbx {

// The longest a spin overshoots its target: __nanosleep(t) sleeps anywhere in [0, 2t], so the loop
// sleeps in steps of kSpinStepNanoseconds and reads %globaltimer after each.
constexpr std::uint64_t kSpinStepNanoseconds = 200;

// Enqueues one thread that spins until the device's global timer has advanced by nanoseconds: it
// keeps a stream busy while the host enqueues what follows (CudaEventTimer's pre-roll), and is a
// kernel of known duration (bench/device_probe).
void launch_spin_for(std::uint64_t nanoseconds, cudaStream_t stream);

}  // namespace gbx

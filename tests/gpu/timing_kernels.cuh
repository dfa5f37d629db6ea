#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "extensions/cuda_spin.h"

namespace gbx_test {

// The kernel of known duration is gbx's own (extensions/cuda_spin.h): the tests time what the fixtures
// use for their pre-roll.
using gbx::kSpinStepNanoseconds;
using gbx::launch_spin_for;

// Reads every float of a buffer once and writes their sum to *out only if it is an impossible value:
// its time depends on whether the buffer is still in L2.
void launch_read_all(const float* data, std::size_t count, float* out, cudaStream_t stream);

}  // namespace gbx_test

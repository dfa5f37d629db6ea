#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gbx_test {

// y = a x + y, in place, enqueued on stream.
void launch_saxpy_in_place(float a, const float* x, float* y, std::size_t n, cudaStream_t stream);

}  // namespace gbx_test

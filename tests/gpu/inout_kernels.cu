#include "tests/gpu/inout_kernels.cuh"

namespace gbx_test {

namespace {

__global__ void saxpy_in_place(float a, const float* x, float* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{256} + threadIdx.x; i < n; i += gridDim.x * std::size_t{256}) {
    y[i] = a * x[i] + y[i];
  }
}

}  // namespace

void launch_saxpy_in_place(float a, const float* x, float* y, std::size_t n, cudaStream_t stream) {
  saxpy_in_place<<<256, 256, 0, stream>>>(a, x, y, n);
}

}  // namespace gbx_test

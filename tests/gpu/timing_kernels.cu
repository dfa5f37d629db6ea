#include "extensions/cuda_check.h"
#include "kernels/grid.h"
#include "tests/gpu/timing_kernels.cuh"

namespace gbx_test {

namespace {

__device__ std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_for_kernel(std::uint64_t nanoseconds) {
  const std::uint64_t start = global_timer_ns();
  while (global_timer_ns() - start < nanoseconds) __nanosleep(static_cast<unsigned>(kSpinStepNanoseconds));
}

__global__ void read_all_kernel(const float* __restrict__ data, std::size_t count, float* out) {
  float sum = 0.0f;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) sum += data[i];
  // One atomic per thread is cheap next to the reads, and keeps them from being optimised away.
  if (sum == 12345.678f) atomicAdd(out, sum);
}

}  // namespace

void launch_spin_for(std::uint64_t nanoseconds, cudaStream_t stream) {
  spin_for_kernel<<<1, 1, 0, stream>>>(nanoseconds);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_read_all(const float* data, std::size_t count, float* out, cudaStream_t stream) {
  read_all_kernel<<<gbx::kernels::grid_stride_blocks(count, 256, 4), 256, 0, stream>>>(data, count, out);
  GBX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gbx_test

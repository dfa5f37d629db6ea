#include "extensions/cuda_check.h"
#include "extensions/cuda_spin.h"

namespace gbx {

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

}  // namespace

void launch_spin_for(std::uint64_t nanoseconds, cudaStream_t stream) {
  spin_for_kernel<<<1, 1, 0, stream>>>(nanoseconds);
  GBX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gbx

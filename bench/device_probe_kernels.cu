#include "bench/device_probe_kernels.cuh"
#include "extensions/cuda_check.h"
#include "kernels/grid.h"

namespace gbx_probe {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kBlocksPerSm = 8;

__device__ std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void empty_kernel() {}

__global__ void global_timer_deltas_kernel(std::uint64_t* deltas, int count) {
  std::uint64_t previous = global_timer_ns();
  int seen = 0;
  // Bounded: a timer that never moves must not hang the probe.
  for (long reads = 0; seen < count && reads < (1L << 26); ++reads) {
    const std::uint64_t now = global_timer_ns();
    if (now != previous) {
      deltas[seen++] = now - previous;
      previous = now;
    }
  }
  deltas[count] = static_cast<std::uint64_t>(seen);
}

__global__ void read_kernel(const float4* __restrict__ data, std::size_t n4, float* out) {
  float sum = 0.0f;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    const float4 v = data[i];
    sum += v.x + v.y + v.z + v.w;
  }
  // Never true for the zeros the probe reads; keeps the loads from being optimised away.
  if (sum == 12345.678f) atomicAdd(out, sum);
}

// The same thread reads the same addresses each pass: ld.global.cg keeps the data out of L1, which
// would otherwise hold a small working set and stand in for the L2.
__global__ void read_passes_kernel(const float4* __restrict__ data, std::size_t n4, int passes, float* out) {
  float sum = 0.0f;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
      const float4 v = __ldcg(data + i);
      sum += v.x + v.y + v.z + v.w;
    }
  }
  if (sum == 12345.678f) atomicAdd(out, sum);
}

__global__ void write_kernel(float4* __restrict__ data, std::size_t n4) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    data[i] = make_float4(1.0f, 1.0f, 1.0f, 1.0f);
  }
}

__global__ void copy_kernel(float4* __restrict__ dst, const float4* __restrict__ src, std::size_t n4) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) dst[i] = src[i];
}

unsigned blocks_for(std::size_t n4) { return gbx::kernels::grid_stride_blocks(n4, kThreads, kBlocksPerSm); }

}  // namespace

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_global_timer_deltas(std::uint64_t* deltas, int count, cudaStream_t stream) {
  global_timer_deltas_kernel<<<1, 1, 0, stream>>>(deltas, count);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_read(const float* data, std::size_t n, float* out, cudaStream_t stream) {
  read_kernel<<<blocks_for(n / 4), kThreads, 0, stream>>>(reinterpret_cast<const float4*>(data), n / 4, out);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_read_passes(const float* data, std::size_t n, int passes, float* out, cudaStream_t stream) {
  read_passes_kernel<<<blocks_for(n / 4), kThreads, 0, stream>>>(reinterpret_cast<const float4*>(data), n / 4, passes,
                                                                 out);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_write(float* data, std::size_t n, cudaStream_t stream) {
  write_kernel<<<blocks_for(n / 4), kThreads, 0, stream>>>(reinterpret_cast<float4*>(data), n / 4);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_copy(float* dst, const float* src, std::size_t n, cudaStream_t stream) {
  copy_kernel<<<blocks_for(n / 4), kThreads, 0, stream>>>(reinterpret_cast<float4*>(dst),
                                                          reinterpret_cast<const float4*>(src), n / 4);
  GBX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gbx_probe

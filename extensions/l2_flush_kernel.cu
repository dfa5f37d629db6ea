#include "extensions/cuda_check.h"
#include "extensions/l2_flush.h"

namespace gbx {

namespace {

// Plain loads (not __ldcs, whose evict-first hint may not leave the lines in L2), 16 bytes each.
__global__ void l2_read_pass(const uint4* __restrict__ words, std::size_t count, unsigned* sink) {
  unsigned folded = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint4 word = words[i];
    folded ^= word.x ^ word.y ^ word.z ^ word.w;
  }
  if (folded == 0x9e3779b9u) *sink = folded;  // never for zeros; keeps the loads
}

}  // namespace

void launch_l2_read_pass(const void* words, std::size_t count, unsigned* sink, unsigned blocks, cudaStream_t stream) {
  l2_read_pass<<<blocks, 256, 0, stream>>>(static_cast<const uint4*>(words), count, sink);
  GBX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gbx

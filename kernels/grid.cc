#include "kernels/grid.h"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "extensions/cuda_check.h"

namespace gbx::kernels {

unsigned grid_stride_blocks(std::size_t work_items, unsigned threads_per_block, unsigned blocks_per_sm) {
  int device = 0;
  int sms = 0;
  GBX_CUDA_CHECK(cudaGetDevice(&device));
  GBX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t needed = (work_items + threads_per_block - 1) / threads_per_block;
  const std::size_t cap = std::size_t(sms) * blocks_per_sm;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(needed, cap)));
}

}  // namespace gbx::kernels

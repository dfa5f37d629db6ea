#include "extensions/cuda_check.h"
#include "kernels/copy.h"
#include "kernels/copy_kernels.cuh"
#include "kernels/grid.h"

namespace gbx::kernels {

namespace {
constexpr unsigned kThreads = 256;

unsigned blocks_for(std::size_t work_items) { return grid_stride_blocks(work_items, kThreads, 8); }
}  // namespace

void launch_copy_scalar(float* dst, const float* src, std::size_t n, cudaStream_t stream) {
  copy_scalar_kernel<<<blocks_for(n), kThreads, 0, stream>>>(dst, src, n);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_copy_vectorised(float* dst, const float* src, std::size_t n, cudaStream_t stream) {
  copy_vectorised_kernel<<<blocks_for(n / 4), kThreads, 0, stream>>>(dst, src, n);
  GBX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gbx::kernels

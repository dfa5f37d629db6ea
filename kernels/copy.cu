#include "extensions/cuda_check.h"
#include "kernels/copy.h"
#include "kernels/copy_kernels.cuh"

namespace gbx::kernels {

namespace {
constexpr unsigned kThreads = 256;

// Enough blocks to fill the device several times over, never more than the data needs.
unsigned blocks_for(std::size_t work_items) {
  int device = 0;
  int sms = 0;
  GBX_CUDA_CHECK(cudaGetDevice(&device));
  GBX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t needed = (work_items + kThreads - 1) / kThreads;
  const std::size_t cap = std::size_t(sms) * 8;
  return static_cast<unsigned>(needed < cap ? (needed > 0 ? needed : 1) : cap);
}
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

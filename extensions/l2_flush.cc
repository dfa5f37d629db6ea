#include "extensions/l2_flush.h"

#include "extensions/cuda_check.h"

namespace gbx {

L2FlushBuffer::L2FlushBuffer() {
  int device = 0;
  GBX_CUDA_CHECK(cudaGetDevice(&device));
  int l2_bytes = 0;
  GBX_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  bytes_ = static_cast<std::size_t>(l2_bytes);
  if (bytes_ > 0) GBX_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
}

L2FlushBuffer::~L2FlushBuffer() {
  if (buffer_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cudaFree(buffer_));
}

void L2FlushBuffer::flush(cudaStream_t stream) {
  if (bytes_ > 0) GBX_CUDA_CHECK(cudaMemsetAsync(buffer_, 0, bytes_, stream));
}

}  // namespace gbx

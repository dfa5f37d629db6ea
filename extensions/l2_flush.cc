#include "extensions/l2_flush.h"

#include "extensions/cuda_check.h"

namespace gbx {

L2FlushBuffer::L2FlushBuffer() {
  int device = 0;
  GBX_CUDA_CHECK(cudaGetDevice(&device));
  int l2 = 0;
  int sms = 0;
  GBX_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  GBX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  l2_bytes_ = static_cast<std::size_t>(l2);
  bytes_ = 2 * l2_bytes_;
  // Eight blocks of 256 threads per SM keep enough loads in flight to read at memory bandwidth.
  blocks_ = static_cast<unsigned>(sms > 0 ? 8 * sms : 1);
  if (bytes_ == 0) return;
  GBX_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
  GBX_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&sink_), sizeof(unsigned)));
  // Zeros, once: the read pass must read defined values. Synchronised, so that no benchmark stream
  // can run ahead of it.
  GBX_CUDA_CHECK(cudaMemset(buffer_, 0, bytes_));
  GBX_CUDA_CHECK(cudaDeviceSynchronize());
}

L2FlushBuffer::~L2FlushBuffer() {
  if (buffer_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cudaFree(buffer_));
  if (sink_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cudaFree(sink_));
}

void L2FlushBuffer::flush(cudaStream_t stream) {
  if (bytes_ == 0) return;
  launch_l2_read_pass(buffer_, bytes_ / 16, sink_, blocks_, stream);
}

}  // namespace gbx

#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gbx {

// A device buffer the size of the current device's L2 cache; writing it evicts what the
// benchmark left there. Non-copyable, since it owns device memory.
class L2FlushBuffer {
 public:
  L2FlushBuffer();
  L2FlushBuffer(const L2FlushBuffer&) = delete;
  L2FlushBuffer& operator=(const L2FlushBuffer&) = delete;
  ~L2FlushBuffer();

  // Enqueued on the stream, before the start event, so the flush is never timed.
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return bytes_; }

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace gbx

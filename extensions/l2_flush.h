#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gbx {

// Evicts what a benchmark left in the current device's L2 cache, leaving no dirty line behind: a read
// pass over a buffer of twice the L2's size. Reading (rather than writing, as a memset would) leaves
// the L2 holding clean lines of this buffer only, so nothing is written back to memory during the
// next timed sample; the benchmark's own dirty lines are written back during the pass, before the
// start event. Twice the size, because an L2 split into partitions that each may hold a copy of a
// line (A100, H100) or a replacement policy that is not strict LRU keeps part of a single pass's
// worth. See docs/gpu-check.md. Non-copyable, since it owns device memory.
class L2FlushBuffer {
 public:
  L2FlushBuffer();
  L2FlushBuffer(const L2FlushBuffer&) = delete;
  L2FlushBuffer& operator=(const L2FlushBuffer&) = delete;
  ~L2FlushBuffer();

  // Enqueued on the stream, before the start event, so the flush is never timed.
  void flush(cudaStream_t stream);
  std::size_t l2_bytes() const { return l2_bytes_; }
  std::size_t bytes() const { return bytes_; }  // read by each flush: 2 x l2_bytes()

 private:
  void* buffer_ = nullptr;
  unsigned* sink_ = nullptr;  // written only if the buffer's contents say so: never, but the compiler cannot know
  std::size_t l2_bytes_ = 0;
  std::size_t bytes_ = 0;
  unsigned blocks_ = 0;
};

// The read pass: reads every 16-byte word of words and writes nothing unless their XOR is a value
// the zero-filled buffer never gives. In l2_flush_kernel.cu.
void launch_l2_read_pass(const void* words, std::size_t count, unsigned* sink, unsigned blocks, cudaStream_t stream);

}  // namespace gbx

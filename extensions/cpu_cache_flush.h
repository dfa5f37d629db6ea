#pragma once

#include <cstddef>
#include <vector>

namespace gbx {

// The largest data cache of this CPU in bytes, from sysfs; 0 when it cannot be read.
std::size_t last_level_cache_bytes();

// Evicts the CPU caches by writing a buffer larger than the last-level cache.
class CpuCacheFlusher {
 public:
  // bytes == 0: twice the last-level cache, or 64 MiB when its size is unknown.
  explicit CpuCacheFlusher(std::size_t bytes = 0);
  CpuCacheFlusher(const CpuCacheFlusher&) = delete;
  CpuCacheFlusher& operator=(const CpuCacheFlusher&) = delete;

  void flush();
  std::size_t bytes() const { return buffer_.size(); }

 private:
  std::vector<unsigned char> buffer_;
  unsigned char pass_ = 0;
};

}  // namespace gbx

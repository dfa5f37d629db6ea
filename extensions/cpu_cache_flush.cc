#include "extensions/cpu_cache_flush.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>

namespace gbx {

namespace {

std::size_t parse_cache_size(const std::string& text) {
  std::size_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) value = value * 10 + std::size_t(text[i] - '0');
  if (i < text.size() && (text[i] == 'K' || text[i] == 'k')) value *= 1024;
  if (i < text.size() && (text[i] == 'M' || text[i] == 'm')) value *= std::size_t{1024} * 1024;
  return value;
}

}  // namespace

std::size_t last_level_cache_bytes() {
  std::size_t largest = 0;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream type_file(dir + "type");
    std::ifstream size_file(dir + "size");
    if (!type_file || !size_file) continue;
    std::string type, size;
    type_file >> type;
    size_file >> size;
    if (type == "Instruction") continue;
    largest = std::max(largest, parse_cache_size(size));
  }
  return largest;
}

CpuCacheFlusher::CpuCacheFlusher(std::size_t bytes) {
  if (bytes == 0) {
    const std::size_t llc = last_level_cache_bytes();
    bytes = llc > 0 ? 2 * llc : std::size_t{64} << 20;
  }
  buffer_.resize(bytes);
}

void CpuCacheFlusher::flush() {
  // A new value each pass, and a read the compiler cannot drop, so the writes really happen.
  std::memset(buffer_.data(), ++pass_, buffer_.size());
  volatile unsigned char sink = buffer_[buffer_.size() / 2];
  (void)sink;
}

}  // namespace gbx

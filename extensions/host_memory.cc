#include "extensions/host_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

namespace gbx {

namespace {

std::size_t round_up(std::size_t bytes, std::size_t to) { return (bytes + to - 1) / to * to; }

std::shared_ptr<void> small_allocation(std::size_t bytes) {
  void* data = std::calloc(bytes == 0 ? 1 : bytes, 1);
  if (data == nullptr) throw std::bad_alloc();
  return {data, [](void* p) { std::free(p); }};
}

}  // namespace

std::shared_ptr<void> allocate_host_bytes(std::size_t bytes) {
  if (bytes < kHugePageBytes / 8) return small_allocation(bytes);
  // Map one huge page more than needed and keep the aligned part: mmap aligns to 4 KiB only.
  const std::size_t length = round_up(bytes, kHugePageBytes);
  const std::size_t mapped = length + kHugePageBytes;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  void* aligned = static_cast<char*>(raw) + (round_up(start, kHugePageBytes) - start);
  // The advice is a request: where THP is off it fails or is ignored, and the pages stay small.
  madvise(aligned, length, MADV_HUGEPAGE);
  return {aligned, [raw, mapped](void*) { munmap(raw, mapped); }};
}

bool in_huge_pages(const void* data) {
  std::ifstream smaps("/proc/self/smaps");
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t low = 0;
    std::uintptr_t high = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> low >> dash >> high && dash == '-') {
      inside = low <= address && address < high;
    } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      std::istringstream field(line.substr(14));
      std::size_t kilobytes = 0;
      field >> kilobytes;
      return kilobytes > 0;
    }
  }
  return false;
}

}  // namespace gbx

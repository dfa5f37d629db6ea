#include "extensions/host_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gbx {

namespace {

std::size_t round_up(std::size_t bytes, std::size_t to) { return (bytes + to - 1) / to * to; }

std::atomic<std::size_t> live_bytes{0};  // allocated here and not yet freed

std::shared_ptr<void> small_allocation(std::size_t bytes) {
  void* data = std::calloc(bytes == 0 ? 1 : bytes, 1);
  if (data == nullptr) throw std::bad_alloc();
  return {data, [](void* p) { std::free(p); }};
}

std::shared_ptr<void> huge_page_allocation(std::size_t bytes) {
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

std::string gibibytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GiB", static_cast<double>(bytes) / 1073741824.0);
  return text;
}

// Refuses what could never be held; counts what is granted until its deleter runs.
std::shared_ptr<void> counted(std::size_t bytes, std::shared_ptr<void> (*allocate)(std::size_t)) {
  const std::size_t memory = physical_memory_bytes();
  const std::size_t live = live_bytes.load();
  if (memory > 0 && (bytes > memory || live > memory - bytes)) {
    throw std::length_error("host arrays of " + std::to_string(bytes) + " bytes (" + gibibytes(bytes) + "), with " +
                            gibibytes(live) + " already allocated, exceed this machine's memory (" + gibibytes(memory) +
                            ")");
  }
  std::shared_ptr<void> storage = allocate(bytes);
  live_bytes += bytes;
  return {storage.get(), [storage, bytes](void*) mutable {
            storage.reset();
            live_bytes -= bytes;
          }};
}

}  // namespace

std::size_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

std::shared_ptr<void> allocate_host_bytes(std::size_t bytes) {
  return counted(bytes, bytes < kHugePageBytes / 8 ? small_allocation : huge_page_allocation);
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

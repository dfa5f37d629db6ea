#pragma once

#include <cstddef>
#include <memory>

namespace gbx {

// Zeroed host memory for a benchmark's arrays. From kHugePageBytes / 8 up, it is a run of 2 MiB
// pages, aligned and advised to transparent huge pages, so that the low 21 bits of each byte's
// physical address are those of its virtual one: the cache sets an array lands in are then the same
// in every process, instead of depending on where the kernel put each 4 KiB page. That placement is
// a per-process term in memory-bound benchmarks, which no interleaving of blocks cancels
// (bench/page_placement.cc measures it). Smaller arrays, and systems that refuse the advice, get ordinary pages.
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Throws std::length_error, naming the size, for more bytes than this machine's memory, counting the
// arrays still allocated: the pages would be touched at once (zeroed), and an overcommitted
// allocation would get the process killed rather than fail. std::bad_alloc where the system refuses.
std::shared_ptr<void> allocate_host_bytes(std::size_t bytes);

// The machine's physical memory in bytes (0 where it cannot be read).
std::size_t physical_memory_bytes();

// Whether the bytes at data lie in transparent huge pages, as /proc/self/smaps says (false where it
// cannot be read); for tests.
bool in_huge_pages(const void* data);

}  // namespace gbx

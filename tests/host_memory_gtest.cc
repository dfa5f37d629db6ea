// The host memory behind host_array: zeroed, writable, and for large arrays aligned to the 2 MiB
// pages that make an array's cache sets the same in every process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "extensions/host_memory.h"

namespace {

bool all_zero(const void* data, std::size_t bytes) {
  const auto* begin = static_cast<const unsigned char*>(data);
  return std::all_of(begin, begin + bytes, [](unsigned char b) { return b == 0; });
}

std::uintptr_t address(const void* data) { return reinterpret_cast<std::uintptr_t>(data); }

TEST(HostMemory, LargeArraysStartOnA2MiBBoundaryZeroedAndWritable) {
  for (const std::size_t bytes : {gbx::kHugePageBytes / 8, std::size_t{256} << 10, (std::size_t{5} << 20) + 3}) {
    const auto storage = gbx::allocate_host_bytes(bytes);
    ASSERT_NE(storage, nullptr);
    EXPECT_EQ(address(storage.get()) % gbx::kHugePageBytes, 0u) << bytes << " bytes";
    EXPECT_TRUE(all_zero(storage.get(), bytes)) << bytes << " bytes";
    auto* bytes_at = static_cast<unsigned char*>(storage.get());
    bytes_at[0] = 1;
    bytes_at[bytes - 1] = 2;  // the last byte is inside the mapping
    EXPECT_EQ(bytes_at[bytes - 1], 2);
  }
}

TEST(HostMemory, SmallArraysAreZeroedOrdinaryMemory) {
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, gbx::kHugePageBytes / 8 - 1}) {
    const auto storage = gbx::allocate_host_bytes(bytes);
    ASSERT_NE(storage, nullptr);
    EXPECT_TRUE(all_zero(storage.get(), bytes)) << bytes << " bytes";
  }
}

// Where the kernel gives huge pages on advice (THP "always" or "madvise"), a touched large array
// gets them unless memory is too fragmented, which a test machine's is not expected to be; where
// THP is "never", the array still works, in small pages.
TEST(HostMemory, TouchedLargeArraysLieInHugePagesWhereTheKernelAllowsThem) {
  std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(setting, modes);
  if (modes.find("[never]") != std::string::npos || modes.empty()) {
    GTEST_SKIP() << "transparent huge pages are off here: " << (modes.empty() ? "no setting" : modes);
  }
  const std::size_t bytes = std::size_t{4} << 20;
  const auto storage = gbx::allocate_host_bytes(bytes);
  std::fill_n(static_cast<unsigned char*>(storage.get()), bytes, 7);
  EXPECT_TRUE(gbx::in_huge_pages(storage.get())) << modes;
  EXPECT_EQ(gbx::in_huge_pages(nullptr), false);
}

}  // namespace

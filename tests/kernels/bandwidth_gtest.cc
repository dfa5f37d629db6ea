// The CPU bandwidth kernels (kernels/bandwidth.h): each must equal its element-by-element twin
// bit for bit, there being no reassociation in either.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/bandwidth.h"
#include "tests/kernels/kernel_test_support.h"

namespace {

// Lengths around the vector widths the compiler may use (4, 8 and 16 floats), so that both the
// vector loop and its scalar tail run, and one of a few MiB.
const std::size_t kLengths[] = {0, 1, 3, 4, 5, 15, 16, 17, 1000, (std::size_t(1) << 20) + 7};

// The arrays are offset by one float from the allocation, so that the kernels also meet pointers
// that are not 16- or 32-byte aligned.
constexpr std::size_t kOffset = 1;

TEST(CpuBandwidth, CopyMemcpyEqualsReference) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto src = kernel_tests::random_floats(n + kOffset, static_cast<std::uint32_t>(n));
    std::vector<float> copied(n + kOffset, -7.0f);
    std::vector<float> expected(n + kOffset, -7.0f);
    gbx::kernels::copy_memcpy(copied.data() + kOffset, src.data() + kOffset, n);
    gbx::kernels::copy_memcpy_reference(expected.data() + kOffset, src.data() + kOffset, n);
    EXPECT_EQ(copied, expected);
  }
}

TEST(CpuBandwidth, TriadEqualsReference) {
  const float scalar = 3.0f;  // STREAM's
  for (std::size_t n : kLengths) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto b = kernel_tests::random_floats(n + kOffset, static_cast<std::uint32_t>(n) + 1);
    const auto c = kernel_tests::random_floats(n + kOffset, static_cast<std::uint32_t>(n) + 2);
    std::vector<float> a(n + kOffset, -7.0f);
    std::vector<float> expected(n + kOffset, -7.0f);
    gbx::kernels::triad(a.data() + kOffset, b.data() + kOffset, c.data() + kOffset, scalar, n);
    gbx::kernels::triad_reference(expected.data() + kOffset, b.data() + kOffset, c.data() + kOffset, scalar, n);
    EXPECT_EQ(a, expected);
  }
}

// The twin itself, on values worked by hand: a = b + 3c.
TEST(CpuBandwidth, TriadReferenceHandWorked) {
  const std::vector<float> b = {1.0f, -2.0f, 0.5f};
  const std::vector<float> c = {2.0f, 1.0f, -0.25f};
  std::vector<float> a(3);
  gbx::kernels::triad_reference(a.data(), b.data(), c.data(), 3.0f, 3);
  EXPECT_EQ(a, (std::vector<float>{7.0f, 1.0f, -0.25f}));
}

}  // namespace

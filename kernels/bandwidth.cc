#include "kernels/bandwidth.h"

#include <cstring>

namespace gbx::kernels {

void copy_memcpy(float* dst, const float* src, std::size_t n) { std::memcpy(dst, src, n * sizeof(float)); }

// __restrict__ promises the compiler what the header requires of callers (no overlap), so that it
// vectorises the loop without a runtime overlap check. The product is a statement of its own here
// and in triad_reference: compilers that fuse a multiply and an add within one expression (clang
// by default, where the target has fma) would otherwise round once instead of twice, and the two
// would no longer agree bit for bit.
void triad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, float scalar,
           std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const float scaled = scalar * c[i];
    a[i] = b[i] + scaled;
  }
}

void copy_memcpy_reference(float* dst, const float* src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dst[i] = src[i];
}

void triad_reference(float* a, const float* b, const float* c, float scalar, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const float scaled = scalar * c[i];
    a[i] = b[i] + scaled;
  }
}

}  // namespace gbx::kernels

#include <cstring>

#include "kernels/copy.h"

namespace gbx::kernels {

void copy_reference(float* dst, const float* src, std::size_t n) { std::memcpy(dst, src, n * sizeof(float)); }

}  // namespace gbx::kernels

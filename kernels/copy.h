#pragma once

#include <cstddef>

namespace gbx::kernels {

// The copy family's CPU twin: what every device copy (kernels/copy_cuda.h) must produce.
void copy_reference(float* dst, const float* src, std::size_t n);

}  // namespace gbx::kernels

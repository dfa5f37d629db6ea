#pragma once

#include <cstddef>

namespace gbx::kernels {

// The CPU bandwidth family: memory-bound loops whose speed is the memory system's, not the core's.
// Source and destination arrays must not overlap.

// dst = src for n floats through the C library's memcpy: the best a copy does on this machine.
void copy_memcpy(float* dst, const float* src, std::size_t n);
// STREAM's triad, a = b + scalar·c: two streams in, one out, one multiply-add per element.
void triad(float* a, const float* b, const float* c, float scalar, std::size_t n);

// The CPU twins: element by element, the obvious way. They round exactly as the kernels do (the
// product is rounded before the sum in both), so the results must match bit for bit.
void copy_memcpy_reference(float* dst, const float* src, std::size_t n);
void triad_reference(float* a, const float* b, const float* c, float scalar, std::size_t n);

}  // namespace gbx::kernels

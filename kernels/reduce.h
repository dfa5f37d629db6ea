#pragma once

#include <cstddef>

namespace gbx::kernels {

// Sums of n floats. The variants differ in how much rounding error they let accumulate.
float reduce_naive(const float* x, std::size_t n);     // one float accumulator: error grows with n
float reduce_pairwise(const float* x, std::size_t n);  // recursive halves: error grows with log n
float reduce_kahan(const float* x, std::size_t n);     // compensated: error independent of n
float reduce_double(const float* x, std::size_t n);    // accumulates in double, rounds once

// The float64 reference every variant is checked against.
double reduce_reference(const float* x, std::size_t n);

}  // namespace gbx::kernels

#pragma once

namespace gbx::kernels {

// The GEMM family: C = A·B with A m×k, B k×n and C m×n, all row-major and densely packed (the
// leading dimension of each is its number of columns). The dimensions are ints because BLAS and
// cuBLAS take ints; indices are formed in std::size_t, so m·k may exceed INT_MAX. Every variant
// overwrites C and accepts any m, n, k >= 0.

// CPU, fp32 in and out. The CUDA variants are in kernels/gemm_cuda.h.
void gemm_naive(const float* A, const float* B, float* C, int m, int n, int k);    // dot product per element
void gemm_blocked(const float* A, const float* B, float* C, int m, int n, int k);  // cache-blocked
void gemm_openblas_sgemm(const float* A, const float* B, float* C, int m, int n, int k);
// CPU, fp64 in and out: what the same inputs cost in double precision.
void gemm_openblas_dgemm(const double* A, const double* B, double* C, int m, int n, int k);

// The float64 reference every variant is checked against: products of floats are exact in double,
// and the sums round at 2^-53, far below any fp32 variant's error.
void gemm_reference(const float* A, const float* B, double* C, int m, int n, int k);

}  // namespace gbx::kernels

#include "kernels/gemm.h"

#include <cblas.h>

#include <algorithm>
#include <cstddef>

namespace gbx::kernels {

namespace {
// B is swept in panels of kBlockK rows by kBlockN columns: 128 × 256 floats = 128 KiB, which stays
// in L2 (256 KiB and up on current x86 cores) while every row of A passes over it. Within a panel,
// the kBlockN floats (1 KiB) of one row of C are updated kBlockK times from L1, and the innermost
// loop runs along rows of B and C, contiguous in memory, so the compiler vectorises it.
constexpr int kBlockK = 128;
constexpr int kBlockN = 256;

std::size_t at(int row, int column, int columns) { return std::size_t(row) * std::size_t(columns) + column; }
}  // namespace

void gemm_naive(const float* A, const float* B, float* C, int m, int n, int k) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum += A[at(i, p, k)] * B[at(p, j, n)];
      C[at(i, j, n)] = sum;
    }
  }
}

void gemm_blocked(const float* A, const float* B, float* C, int m, int n, int k) {
  std::fill(C, C + std::size_t(m) * std::size_t(n), 0.0f);
  for (int j0 = 0; j0 < n; j0 += kBlockN) {
    const int j1 = std::min(n, j0 + kBlockN);
    for (int p0 = 0; p0 < k; p0 += kBlockK) {
      const int p1 = std::min(k, p0 + kBlockK);
      for (int i = 0; i < m; ++i) {
        float* c_row = C + at(i, 0, n);
        for (int p = p0; p < p1; ++p) {
          const float a = A[at(i, p, k)];
          const float* b_row = B + at(p, 0, n);
          for (int j = j0; j < j1; ++j) c_row[j] += a * b_row[j];
        }
      }
    }
  }
}

// For k = 0, BLAS would want a leading dimension of at least 1 for an A without columns, and
// implementations differ on whether beta = 0 then clears C; that edge is settled here instead.
void gemm_openblas_sgemm(const float* A, const float* B, float* C, int m, int n, int k) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(C, C + std::size_t(m) * std::size_t(n), 0.0f);
    return;
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);
}

void gemm_openblas_dgemm(const double* A, const double* B, double* C, int m, int n, int k) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(C, C + std::size_t(m) * std::size_t(n), 0.0);
    return;
  }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 0.0, C, n);
}

void gemm_reference(const float* A, const float* B, double* C, int m, int n, int k) {
  std::fill(C, C + std::size_t(m) * std::size_t(n), 0.0);
  for (int i = 0; i < m; ++i) {
    double* c_row = C + at(i, 0, n);
    for (int p = 0; p < k; ++p) {
      const double a = A[at(i, p, k)];
      const float* b_row = B + at(p, 0, n);
      for (int j = 0; j < n; ++j) c_row[j] += a * static_cast<double>(b_row[j]);
    }
  }
}

}  // namespace gbx::kernels

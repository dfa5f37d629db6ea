#pragma once

#include <cuda_runtime_api.h>

namespace gbx::kernels {

// The GEMM family on the device (shapes and layouts as in kernels/gemm.h, whose gemm_reference is
// the CPU twin): fp32 in and out, enqueued on stream; A, B and C are device pointers. The cuBLAS
// variants are in kernels/gemm_cublas.h.
void launch_gemm_naive(const float* A, const float* B, float* C, int m, int n, int k, cudaStream_t stream);
void launch_gemm_tiled(const float* A, const float* B, float* C, int m, int n, int k, cudaStream_t stream);
// 16-byte loads and stores where a row's length (k for A, n for B and C) is a multiple of 4 and
// the pointer is 16-byte aligned; element by element otherwise, so any shape and pointer works.
void launch_gemm_register_blocked(const float* A, const float* B, float* C, int m, int n, int k, cudaStream_t stream);

}  // namespace gbx::kernels

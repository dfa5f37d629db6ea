#pragma once

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>

namespace gbx::kernels {

// A cuBLAS handle whose calls run on one stream. Move-only; a moved-from handle holds nothing.
class CublasHandle {
 public:
  // The workspace cuBLAS's documentation (cublasSetWorkspace) recommends for Hopper; older GPUs
  // need 4 MiB, so this suits every device.
  static constexpr std::size_t kRecommendedWorkspaceBytes = std::size_t(32) << 20;

  // With a workspace (device memory, 256-byte aligned as cudaMalloc's is, owned by the caller and
  // alive as long as this handle is used), cuBLAS works in it rather than in a pool of its own, so
  // a fixture that allocated it through its helpers counts that memory; workspace_bytes() reports
  // its size. Without one, cuBLAS uses its own pool, which no count sees, and workspace_bytes() is 0.
  explicit CublasHandle(cudaStream_t stream, void* workspace = nullptr, std::size_t workspace_bytes = 0);
  ~CublasHandle();
  CublasHandle(CublasHandle&& other) noexcept;
  CublasHandle& operator=(CublasHandle&& other) noexcept;
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  cublasHandle_t get() const { return handle_; }
  cudaStream_t stream() const { return stream_; }
  std::size_t workspace_bytes() const { return workspace_bytes_; }

 private:
  void reset() noexcept;

  cublasHandle_t handle_ = nullptr;
  cudaStream_t stream_ = nullptr;
  std::size_t workspace_bytes_ = 0;
};

// cuBLAS GEMMs with the row-major layouts of kernels/gemm.h, enqueued on the handle's stream; all
// pointers are device memory. cuBLAS is column-major, and a row-major matrix read column-major is
// its transpose. So each launcher asks cuBLAS for Cᵀ = Bᵀ·Aᵀ (n×m, from B as n×k and A as k×m),
// whose column-major layout is exactly row-major C, with no transposition done in memory.

// fp32 in, out and arithmetic.
void launch_cublas_sgemm(const CublasHandle& handle, const float* A, const float* B, float* C, int m, int n, int k);
// fp32 in and out; cuBLAS may round the inputs to TF32 (10-bit mantissa) for the tensor cores.
void launch_cublas_tf32(const CublasHandle& handle, const float* A, const float* B, float* C, int m, int n, int k);
// fp16 or bf16 in (see the conversions below), fp32 accumulation and out.
void launch_cublas_gemm_ex_fp16(const CublasHandle& handle, const __half* A, const __half* B, float* C, int m, int n,
                                int k);
void launch_cublas_gemm_ex_bf16(const CublasHandle& handle, const __nv_bfloat16* A, const __nv_bfloat16* B, float* C,
                                int m, int n, int k);

// n floats rounded to the nearest half or bfloat16, for the inputs of the launchers above. They are
// CUDA kernels, defined in gemm.cu with the other GEMM kernels' launchers.
void launch_convert_to_half(__half* dst, const float* src, std::size_t n, cudaStream_t stream);
void launch_convert_to_bf16(__nv_bfloat16* dst, const float* src, std::size_t n, cudaStream_t stream);

}  // namespace gbx::kernels

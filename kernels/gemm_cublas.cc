#include "kernels/gemm_cublas.h"

#include <utility>

#include "extensions/cuda_check.h"
#include "kernels/cublas_check.h"

namespace gbx::kernels {

CublasHandle::CublasHandle(cudaStream_t stream, void* workspace, std::size_t workspace_bytes) : stream_(stream) {
  GBX_CUDA_CHECK(cublasCreate(&handle_));
  try {
    // The stream first: cublasSetStream discards a workspace set before it.
    GBX_CUDA_CHECK(cublasSetStream(handle_, stream));
    if (workspace != nullptr) {
      GBX_CUDA_CHECK(cublasSetWorkspace(handle_, workspace, workspace_bytes));
      workspace_bytes_ = workspace_bytes;
    }
  } catch (...) {
    reset();
    throw;
  }
}

CublasHandle::~CublasHandle() { reset(); }

CublasHandle::CublasHandle(CublasHandle&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      stream_(std::exchange(other.stream_, nullptr)),
      workspace_bytes_(std::exchange(other.workspace_bytes_, 0)) {}

CublasHandle& CublasHandle::operator=(CublasHandle&& other) noexcept {
  if (this != &other) {
    reset();
    handle_ = std::exchange(other.handle_, nullptr);
    stream_ = std::exchange(other.stream_, nullptr);
    workspace_bytes_ = std::exchange(other.workspace_bytes_, 0);
  }
  return *this;
}

void CublasHandle::reset() noexcept {
  if (handle_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cublasDestroy(handle_));
  handle_ = nullptr;
  stream_ = nullptr;
  workspace_bytes_ = 0;
}

namespace {

// Whether cuBLAS needs calling at all: an empty C has nothing to write, and for k = 0 C is cleared
// here, so that no leading dimension of 0 reaches cuBLAS and no variant depends on how cuBLAS
// treats an empty sum.
bool settle_edges(const CublasHandle& handle, float* C, int m, int n, int k) {
  if (m == 0 || n == 0) return false;
  if (k == 0) {
    GBX_CUDA_CHECK(cudaMemsetAsync(C, 0, std::size_t(m) * std::size_t(n) * sizeof(float), handle.stream()));
    return false;
  }
  return true;
}

// The call the tf32, fp16 and bf16 variants share: alpha = 1 and beta = 0 on the host, fp32 out.
void gemm_ex(const CublasHandle& handle, const void* A, const void* B, cudaDataType input_type, float* C, int m, int n,
             int k, cublasComputeType_t compute_type) {
  if (!settle_edges(handle, C, m, n, k)) return;
  const float one = 1.0f;
  const float zero = 0.0f;
  GBX_CUDA_CHECK(cublasGemmEx(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, input_type, n, A, input_type, k,
                              &zero, C, CUDA_R_32F, n, compute_type, CUBLAS_GEMM_DEFAULT));
}

}  // namespace

void launch_cublas_sgemm(const CublasHandle& handle, const float* A, const float* B, float* C, int m, int n, int k) {
  if (!settle_edges(handle, C, m, n, k)) return;
  const float one = 1.0f;
  const float zero = 0.0f;
  GBX_CUDA_CHECK(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n));
}

void launch_cublas_tf32(const CublasHandle& handle, const float* A, const float* B, float* C, int m, int n, int k) {
  gemm_ex(handle, A, B, CUDA_R_32F, C, m, n, k, CUBLAS_COMPUTE_32F_FAST_TF32);
}

void launch_cublas_gemm_ex_fp16(const CublasHandle& handle, const __half* A, const __half* B, float* C, int m, int n,
                                int k) {
  gemm_ex(handle, A, B, CUDA_R_16F, C, m, n, k, CUBLAS_COMPUTE_32F);
}

void launch_cublas_gemm_ex_bf16(const CublasHandle& handle, const __nv_bfloat16* A, const __nv_bfloat16* B, float* C,
                                int m, int n, int k) {
  gemm_ex(handle, A, B, CUDA_R_16BF, C, m, n, k, CUBLAS_COMPUTE_32F);
}

}  // namespace gbx::kernels

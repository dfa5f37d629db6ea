#pragma once

#include <cublas_v2.h>

#include "extensions/cuda_check.h"

// cuBLAS statuses in the one check family of extensions/cuda_check.h: GBX_CUDA_CHECK(cublasXxx(...))
// throws gbx::CudaError with cuBLAS's own name and description of the status.
namespace gbx::detail {

inline bool failed(cublasStatus_t status) { return status != CUBLAS_STATUS_SUCCESS; }
[[noreturn]] void throw_cuda_failure(cublasStatus_t status, const char* call, const char* file, int line);
void report_cuda_failure(cublasStatus_t status, const char* call, const char* file, int line) noexcept;

}  // namespace gbx::detail

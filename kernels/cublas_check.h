#pragma once

#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace gbx::kernels {

// A failed cuBLAS call: where it was, what was called, and cuBLAS's own name and description of
// the status. cuBLAS reports through cublasStatus_t, not cudaError_t, hence a sibling of
// gbx::CudaError rather than an instance of it.
class CublasError : public std::runtime_error {
 public:
  CublasError(cublasStatus_t status, const char* call, const char* file, int line);
  cublasStatus_t status() const { return status_; }

 private:
  cublasStatus_t status_;
};

// The message both macros use: "file:line: call failed: CUBLAS_STATUS_...: description".
std::string describe_cublas_error(cublasStatus_t status, const char* call, const char* file, int line);

// For destructors and other places that must not throw: prints the failure to stderr.
void report_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) noexcept;

}  // namespace gbx::kernels

#define GBX_CUBLAS_CHECK(call)                                                          \
  do {                                                                                  \
    const cublasStatus_t gbx_cublas_status_ = (call);                                   \
    if (gbx_cublas_status_ != CUBLAS_STATUS_SUCCESS) {                                  \
      throw ::gbx::kernels::CublasError(gbx_cublas_status_, #call, __FILE__, __LINE__); \
    }                                                                                   \
  } while (false)

#define GBX_CUBLAS_CHECK_NOTHROW(call)                                                    \
  do {                                                                                    \
    const cublasStatus_t gbx_cublas_status_ = (call);                                     \
    if (gbx_cublas_status_ != CUBLAS_STATUS_SUCCESS) {                                    \
      ::gbx::kernels::report_cublas_error(gbx_cublas_status_, #call, __FILE__, __LINE__); \
    }                                                                                     \
  } while (false)

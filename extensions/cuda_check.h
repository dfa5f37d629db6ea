#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace gbx {

// A failed CUDA library call (the runtime, cuBLAS): where it was, what was called, and the library's
// own name and description of the status. One type for every CUDA library, so that a caller catches
// one thing whichever library failed.
class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& message, int status) : std::runtime_error(message), status_(status) {}
  // The library's status value: a cudaError_t, or a cublasStatus_t from cuBLAS.
  int status() const { return status_; }

 private:
  int status_;
};

namespace detail {

// Each library's statuses: whether one is a failure, and how to report it (the runtime's here,
// cuBLAS's in kernels/cublas_check.h). The macros below pick the overload for the call's status.
inline bool failed(cudaError_t status) { return status != cudaSuccess; }
// "file:line: call failed: cudaErrorName: description", thrown as a CudaError.
[[noreturn]] void throw_cuda_failure(cudaError_t status, const char* call, const char* file, int line);
// For destructors and other places that must not throw: prints the same to stderr.
void report_cuda_failure(cudaError_t status, const char* call, const char* file, int line) noexcept;

// What every library's throwing overload ends with. Every overload, throwing or not, clears the
// runtime's last error (cudaGetLastError()): a failed call leaves its error there as well, and the
// next benchmark's launch check (cudaGetLastError() after <<<...>>>) would otherwise fail on this
// one's leftover. An error that corrupts the context (an illegal address) stays sticky whatever is
// cleared; the benchmark that met it fails either way.
[[noreturn]] void throw_cuda_failure(const std::string& status_text, int status, const char* call, const char* file,
                                     int line);

}  // namespace detail
}  // namespace gbx

// The one check family, for the CUDA runtime and cuBLAS alike (include kernels/cublas_check.h for
// cuBLAS statuses): GBX_CUDA_CHECK throws gbx::CudaError, GBX_CUDA_CHECK_NOTHROW prints to stderr.
#define GBX_CUDA_CHECK(call)                                                          \
  do {                                                                                \
    const auto gbx_cuda_status_ = (call);                                             \
    if (::gbx::detail::failed(gbx_cuda_status_)) {                                    \
      ::gbx::detail::throw_cuda_failure(gbx_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                                 \
  } while (false)

#define GBX_CUDA_CHECK_NOTHROW(call)                                                   \
  do {                                                                                 \
    const auto gbx_cuda_status_ = (call);                                              \
    if (::gbx::detail::failed(gbx_cuda_status_)) {                                     \
      ::gbx::detail::report_cuda_failure(gbx_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                                  \
  } while (false)

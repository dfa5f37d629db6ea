#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace gbx {

// A failed CUDA runtime call: where it was, what was called, and the runtime's own error string.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* call, const char* file, int line);
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

// The message both macros use: "file:line: call failed: cudaErrorName: error string".
std::string describe_cuda_error(cudaError_t code, const char* call, const char* file, int line);

// For destructors and other places that must not throw: prints the failure to stderr.
void report_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept;

}  // namespace gbx

#define GBX_CUDA_CHECK(call)                                               \
  do {                                                                     \
    const cudaError_t gbx_cuda_status_ = (call);                           \
    if (gbx_cuda_status_ != cudaSuccess) {                                 \
      throw ::gbx::CudaError(gbx_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                      \
  } while (false)

#define GBX_CUDA_CHECK_NOTHROW(call)                                         \
  do {                                                                       \
    const cudaError_t gbx_cuda_status_ = (call);                             \
    if (gbx_cuda_status_ != cudaSuccess) {                                   \
      ::gbx::report_cuda_error(gbx_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                        \
  } while (false)

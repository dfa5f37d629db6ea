#include "kernels/cublas_check.h"

#include <cstdio>
#include <string>

namespace gbx::detail {

void throw_cuda_failure(cublasStatus_t status, const char* call, const char* file, int line) {
  throw_cuda_failure(std::string(cublasGetStatusName(status)) + ": " + cublasGetStatusString(status),
                     static_cast<int>(status), call, file, line);
}

void report_cuda_failure(cublasStatus_t status, const char* call, const char* file, int line) noexcept {
  std::fprintf(stderr, "gbx: %s:%d: %s failed: %s: %s\n", file, line, call, cublasGetStatusName(status),
               cublasGetStatusString(status));
  static_cast<void>(cudaGetLastError());
}

}  // namespace gbx::detail

#include "kernels/cublas_check.h"

#include <cstdio>

namespace gbx::kernels {

std::string describe_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + cublasGetStatusName(status) +
         ": " + cublasGetStatusString(status);
}

CublasError::CublasError(cublasStatus_t status, const char* call, const char* file, int line)
    : std::runtime_error(describe_cublas_error(status, call, file, line)), status_(status) {}

void report_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) noexcept {
  try {
    std::fprintf(stderr, "gbx: %s\n", describe_cublas_error(status, call, file, line).c_str());
  } catch (...) {
    std::fprintf(stderr, "gbx: cuBLAS call failed at %s:%d\n", file, line);
  }
}

}  // namespace gbx::kernels

#include "extensions/cuda_check.h"

#include <cstdio>

namespace gbx::detail {

void throw_cuda_failure(const std::string& status_text, int status, const char* call, const char* file, int line) {
  static_cast<void>(cudaGetLastError());
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + status_text, status);
}

void throw_cuda_failure(cudaError_t status, const char* call, const char* file, int line) {
  throw_cuda_failure(std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status),
                     static_cast<int>(status), call, file, line);
}

void report_cuda_failure(cudaError_t status, const char* call, const char* file, int line) noexcept {
  // No allocation here: this runs in destructors.
  std::fprintf(stderr, "gbx: %s:%d: %s failed: %s: %s\n", file, line, call, cudaGetErrorName(status),
               cudaGetErrorString(status));
  static_cast<void>(cudaGetLastError());
}

}  // namespace gbx::detail

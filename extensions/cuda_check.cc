#include "extensions/cuda_check.h"

#include <cstdio>

namespace gbx {

std::string describe_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + cudaGetErrorName(code) + ": " +
         cudaGetErrorString(code);
}

CudaError::CudaError(cudaError_t code, const char* call, const char* file, int line)
    : std::runtime_error(describe_cuda_error(code, call, file, line)), code_(code) {}

void report_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept {
  try {
    std::fprintf(stderr, "gbx: %s\n", describe_cuda_error(code, call, file, line).c_str());
  } catch (...) {
    std::fprintf(stderr, "gbx: CUDA call failed at %s:%d\n", file, line);
  }
}

}  // namespace gbx

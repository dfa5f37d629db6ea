#include "extensions/cuda_timers.h"

#include <utility>

#include "extensions/cpu_timer.h"
#include "extensions/cuda_check.h"

namespace gbx {

CudaEventTimer::CudaEventTimer(cudaStream_t stream) : stream_(stream) {
  GBX_CUDA_CHECK(cudaEventCreate(&start_));
  try {
    GBX_CUDA_CHECK(cudaEventCreate(&stop_));
  } catch (...) {
    destroy();
    throw;
  }
}

CudaEventTimer::CudaEventTimer(CudaEventTimer&& other) noexcept
    : stream_(other.stream_),
      start_(std::exchange(other.start_, nullptr)),
      stop_(std::exchange(other.stop_, nullptr)) {}

CudaEventTimer& CudaEventTimer::operator=(CudaEventTimer&& other) noexcept {
  if (this != &other) {
    destroy();
    stream_ = other.stream_;
    start_ = std::exchange(other.start_, nullptr);
    stop_ = std::exchange(other.stop_, nullptr);
  }
  return *this;
}

CudaEventTimer::~CudaEventTimer() { destroy(); }

void CudaEventTimer::destroy() noexcept {
  if (start_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cudaEventDestroy(start_));
  if (stop_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cudaEventDestroy(stop_));
  start_ = nullptr;
  stop_ = nullptr;
}

void CudaEventTimer::start() { GBX_CUDA_CHECK(cudaEventRecord(start_, stream_)); }

void CudaEventTimer::stop() { GBX_CUDA_CHECK(cudaEventRecord(stop_, stream_)); }

double CudaEventTimer::elapsed_seconds() {
  GBX_CUDA_CHECK(cudaEventSynchronize(stop_));
  float milliseconds = 0.0f;
  GBX_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_, stop_));
  return static_cast<double>(milliseconds) * 1e-3;
}

void HostWallTimer::start() {
  GBX_CUDA_CHECK(cudaDeviceSynchronize());
  start_ = steady_now_seconds();
}

void HostWallTimer::stop() {
  GBX_CUDA_CHECK(cudaDeviceSynchronize());
  stop_ = steady_now_seconds();
}

double HostWallTimer::resolution_seconds() const { return steady_clock_resolution_seconds(); }

}  // namespace gbx

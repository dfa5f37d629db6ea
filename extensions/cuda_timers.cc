#include "extensions/cuda_timers.h"

#include <utility>

#include "extensions/cpu_timer.h"
#include "extensions/cuda_check.h"
#include "extensions/cuda_spin.h"

namespace gbx {

namespace {

class RuntimeEventCalls final : public CudaEventCalls {
 public:
  cudaEvent_t create_event() override {
    cudaEvent_t event = nullptr;
    GBX_CUDA_CHECK(cudaEventCreate(&event));
    return event;
  }
  void destroy_event(cudaEvent_t event) noexcept override { GBX_CUDA_CHECK_NOTHROW(cudaEventDestroy(event)); }
  void pre_roll(cudaStream_t stream, std::uint64_t nanoseconds) override { launch_spin_for(nanoseconds, stream); }
  void record(cudaEvent_t event, cudaStream_t stream) override { GBX_CUDA_CHECK(cudaEventRecord(event, stream)); }
  double elapsed_seconds(cudaEvent_t start, cudaEvent_t stop) override {
    GBX_CUDA_CHECK(cudaEventSynchronize(stop));
    float milliseconds = 0.0f;
    GBX_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start, stop));
    return static_cast<double>(milliseconds) * 1e-3;
  }
};

}  // namespace

std::shared_ptr<CudaEventCalls> cuda_runtime_event_calls() {
  static const auto calls = std::make_shared<RuntimeEventCalls>();
  return calls;
}

CudaEventTimer::CudaEventTimer(cudaStream_t stream, std::shared_ptr<CudaEventCalls> calls)
    : stream_(stream), calls_(std::move(calls)) {
  start_ = calls_->create_event();
  try {
    stop_ = calls_->create_event();
  } catch (...) {
    destroy();
    throw;
  }
}

CudaEventTimer::CudaEventTimer(CudaEventTimer&& other) noexcept
    : stream_(other.stream_),
      calls_(std::move(other.calls_)),
      start_(std::exchange(other.start_, nullptr)),
      stop_(std::exchange(other.stop_, nullptr)) {}

CudaEventTimer& CudaEventTimer::operator=(CudaEventTimer&& other) noexcept {
  if (this != &other) {
    destroy();
    stream_ = other.stream_;
    calls_ = other.calls_;
    start_ = std::exchange(other.start_, nullptr);
    stop_ = std::exchange(other.stop_, nullptr);
  }
  return *this;
}

CudaEventTimer::~CudaEventTimer() { destroy(); }

void CudaEventTimer::destroy() noexcept {
  if (start_ != nullptr) calls_->destroy_event(start_);
  if (stop_ != nullptr) calls_->destroy_event(stop_);
  start_ = nullptr;
  stop_ = nullptr;
}

void CudaEventTimer::start() {
  calls_->pre_roll(stream_, kCudaPreRollNanoseconds);
  calls_->record(start_, stream_);
}

void CudaEventTimer::stop() { calls_->record(stop_, stream_); }

double CudaEventTimer::elapsed_seconds() { return calls_->elapsed_seconds(start_, stop_); }

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

#pragma once

#include <cuda_runtime_api.h>

#include "extensions/timer.h"

namespace gbx {

// Device time between two CUDA events recorded on the benchmark's stream. Move-only.
class CudaEventTimer final : public Timer {
 public:
  explicit CudaEventTimer(cudaStream_t stream);
  CudaEventTimer(CudaEventTimer&& other) noexcept;
  CudaEventTimer& operator=(CudaEventTimer&& other) noexcept;
  ~CudaEventTimer() override;

  void start() override;
  void stop() override;
  double elapsed_seconds() override;
  // CUDA documents event timing to a resolution of about half a microsecond.
  double resolution_seconds() const override { return 0.5e-6; }
  TimerKind kind() const override { return TimerKind::cuda_event; }

 private:
  void destroy() noexcept;

  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// End-to-end host time: synchronises the device, then reads the steady clock, at both ends.
class HostWallTimer final : public Timer {
 public:
  void start() override;
  void stop() override;
  double elapsed_seconds() override { return stop_ - start_; }
  double resolution_seconds() const override;
  TimerKind kind() const override { return TimerKind::host_wall; }

 private:
  double start_ = 0.0;
  double stop_ = 0.0;
};

}  // namespace gbx

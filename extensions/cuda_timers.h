#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "extensions/timer.h"

namespace gbx {

// How long the stream is kept busy before each start event: longer than the host takes to enqueue
// the start event and the first run behind it (the launch latency, a few microseconds), so that
// the device reaches the start event with the run already queued behind it. 50 us: ten times a
// typical launch latency, and the margin tests/gpu/gpu_timing_gtest.cc uses; it is not timed.
constexpr std::uint64_t kCudaPreRollNanoseconds = 50'000;

// The CUDA calls a CudaEventTimer makes, behind an interface so that their order (the pre-roll, then
// the start event) can be checked without a device (tests/gpu/cuda_timer_pre_roll_gtest.cc).
class CudaEventCalls {
 public:
  virtual ~CudaEventCalls() = default;
  virtual cudaEvent_t create_event() = 0;
  virtual void destroy_event(cudaEvent_t event) noexcept = 0;
  // Enqueues a kernel that spins on the device's global timer for nanoseconds.
  virtual void pre_roll(cudaStream_t stream, std::uint64_t nanoseconds) = 0;
  virtual void record(cudaEvent_t event, cudaStream_t stream) = 0;
  // Waits for stop, then the device time between the two events.
  virtual double elapsed_seconds(cudaEvent_t start, cudaEvent_t stop) = 0;
};

// The CUDA runtime's calls.
std::shared_ptr<CudaEventCalls> cuda_runtime_event_calls();

// Device time between two CUDA events recorded on the benchmark's stream. Each sample ends with the
// host waiting for its stop event, so the next one would start on an idle stream: its start event
// would be stamped at once, before the first run has even been launched, and the sample would
// include the launch latency. start() therefore enqueues a pre-roll (a spin of
// kCudaPreRollNanoseconds) before the start event: the timed region is the runs alone, from the end
// of the pre-roll to the end of the last run. Move-only.
class CudaEventTimer final : public detail::Timer {
 public:
  explicit CudaEventTimer(cudaStream_t stream, std::shared_ptr<CudaEventCalls> calls = cuda_runtime_event_calls());
  CudaEventTimer(CudaEventTimer&& other) noexcept;
  CudaEventTimer& operator=(CudaEventTimer&& other) noexcept;
  ~CudaEventTimer() override;

  void start() override;
  void stop() override;
  double elapsed_seconds() override;
  // CUDA documents event timing to a resolution of about half a microsecond.
  double resolution_seconds() const override { return 0.5e-6; }
  detail::TimerKind kind() const override { return detail::TimerKind::cuda_event; }

 private:
  void destroy() noexcept;

  cudaStream_t stream_ = nullptr;
  std::shared_ptr<CudaEventCalls> calls_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// End-to-end host time: synchronises the device, then reads the steady clock, at both ends.
class HostWallTimer final : public detail::Timer {
 public:
  void start() override;
  void stop() override;
  double elapsed_seconds() override { return stop_ - start_; }
  double resolution_seconds() const override;
  detail::TimerKind kind() const override { return detail::TimerKind::host_wall; }

 private:
  double start_ = 0.0;
  double stop_ = 0.0;
};

}  // namespace gbx

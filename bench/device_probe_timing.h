#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "extensions/cuda_check.h"
#include "extensions/cuda_spin.h"
#include "extensions/cuda_timers.h"
#include "stats/statistics.h"

namespace gbx_probe {

// A non-blocking stream of the probe's own. Move-less: made and destroyed in one scope.
class ProbeStream {
 public:
  ProbeStream() { GBX_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~ProbeStream() { GBX_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_)); }
  ProbeStream(const ProbeStream&) = delete;
  ProbeStream& operator=(const ProbeStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Device times of work between two raw events, one per repeat: before() first (a flush; untimed),
// then with pre_roll the same spin CudaEventTimer enqueues, so that the start event is not stamped
// on an idle stream; without it, the start event is (the bias the fixture's pre-roll removes).
inline std::vector<double> event_seconds(cudaStream_t stream, const std::function<void()>& work, int repeats,
                                         bool pre_roll, const std::function<void()>& before = {}) {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  GBX_CUDA_CHECK(cudaEventCreate(&start));
  GBX_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> seconds;
  for (int i = 0; i < repeats; ++i) {
    if (before) before();
    if (pre_roll) gbx::launch_spin_for(gbx::kCudaPreRollNanoseconds, stream);
    GBX_CUDA_CHECK(cudaEventRecord(start, stream));
    work();
    GBX_CUDA_CHECK(cudaEventRecord(stop, stream));
    GBX_CUDA_CHECK(cudaEventSynchronize(stop));
    float milliseconds = 0.0f;
    GBX_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start, stop));
    seconds.push_back(static_cast<double>(milliseconds) * 1e-3);
  }
  GBX_CUDA_CHECK(cudaEventDestroy(start));
  GBX_CUDA_CHECK(cudaEventDestroy(stop));
  return seconds;
}

inline double median_event_seconds(cudaStream_t stream, const std::function<void()>& work, int repeats, bool pre_roll,
                                   const std::function<void()>& before = {}) {
  return gbx::median(event_seconds(stream, work, repeats, pre_roll, before)).value_or(0.0);
}

}  // namespace gbx_probe

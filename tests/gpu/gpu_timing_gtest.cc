// On a machine with a CUDA device: device-time mode measures a kernel of known duration within
// 5%, and cold samples of a kernel whose data fits in L2 are slower than hot ones. Elsewhere the
// tests skip with the runtime's reason (scripts/gpu-check runs them on the GPU machine).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "extensions/cpu_timer.h"
#include "extensions/cuda_check.h"
#include "extensions/cuda_device.h"
#include "extensions/cuda_timers.h"
#include "extensions/device_array.h"
#include "extensions/l2_flush.h"
#include "extensions/measurement.h"
#include "tests/gpu/timing_kernels.cuh"

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

class GpuTiming : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string reason = gbx::cuda_unavailable_reason();
    if (!reason.empty()) GTEST_SKIP() << reason;
    GBX_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  void TearDown() override {
    if (stream_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_));
  }
  gbx::Measurement measure(gbx::CacheMode cache, const std::function<void()>& run,
                           const std::function<void()>& flush = {}) {
    gbx::Protocol protocol;
    protocol.warmup_runs = 5;
    protocol.min_samples = 30;
    protocol.cache = cache;
    gbx::CudaEventTimer timer(stream_);
    gbx::MeasurementHooks hooks;
    hooks.run = run;
    hooks.flush = flush;
    hooks.now_seconds = gbx::steady_now_seconds;
    return gbx::measure(protocol, timer, hooks);
  }
  cudaStream_t stream_ = nullptr;
};

TEST_F(GpuTiming, DeviceTimeOfAKernelOfKnownDurationIsWithinFivePercent) {
  for (const double seconds : {200e-6, 2e-3}) {
    const auto nanoseconds = static_cast<std::uint64_t>(seconds * 1e9);
    const gbx::Measurement m = measure(gbx::CacheMode::hot, [&] { gbx_test::launch_spin_for(nanoseconds, stream_); });
    const double measured = median(m.samples);
    std::printf("spin for %.0f us: median %.2f us over %zu samples (batch %lld)\n", seconds * 1e6, measured * 1e6,
                m.samples.size(), static_cast<long long>(m.batch));
    EXPECT_NEAR(measured, seconds, 0.05 * seconds);
  }
}

TEST_F(GpuTiming, ColdSamplesOfAnL2SizedWorkingSetAreSlowerThanHotOnes) {
  gbx::L2FlushBuffer l2;
  // A quarter of the L2: stays resident between hot runs, evicted by every flush.
  const std::size_t count = std::max<std::size_t>(l2.bytes() / 4 / sizeof(float), 1 << 16);
  gbx::DeviceArray<float> data(count);
  gbx::DeviceArray<float> out(1);
  GBX_CUDA_CHECK(cudaMemset(data.data(), 0, data.bytes()));
  const auto run = [&] { gbx_test::launch_read_all(data.data(), count, out.data(), stream_); };
  const gbx::Measurement hot = measure(gbx::CacheMode::hot, run);
  const gbx::Measurement cold = measure(gbx::CacheMode::cold, run, [&] { l2.flush(stream_); });
  const double hot_median = median(hot.samples);
  const double cold_median = median(cold.samples);
  std::printf("read %zu KiB (L2 %zu KiB): hot median %.2f us (batch %lld), cold median %.2f us, cold/hot %.2f\n",
              count * sizeof(float) / 1024, l2.bytes() / 1024, hot_median * 1e6, static_cast<long long>(hot.batch),
              cold_median * 1e6, cold_median / hot_median);
  EXPECT_EQ(cold.batch, 1);
  EXPECT_EQ(cold.flushes, static_cast<std::int64_t>(cold.samples.size()));
  EXPECT_GT(cold_median, hot_median);
}

}  // namespace

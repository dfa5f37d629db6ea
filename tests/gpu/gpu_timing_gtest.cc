// On a machine with a CUDA device: device-time samples of a kernel of known duration are that
// duration, and a flushed L2 makes a read of an L2-resident working set slower than an unflushed
// one, measured alike. Elsewhere the tests skip with the runtime's reason (scripts/gpu-check runs
// them on the GPU machine).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <functional>
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

// Before every sample the stream is kept busy this long, so that the host has enqueued the start
// event, the run and the stop event before the device reaches them: the start event is then recorded
// when the stream gets to it, right before the run, and the sample is device time. On an idle stream
// the start event would be recorded at once, and the sample would include the run's launch latency.
constexpr std::uint64_t kBusyNanoseconds = 50'000;

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
  // Unbatched samples of run, each after before_sample and a busy stream. The protocol's cold mode
  // is used for every measurement here, whatever the cache: it never batches and calls its hook
  // before each sample, outside the timed region.
  gbx::detail::Measurement measure_unbatched(const std::function<void()>& run,
                                             const std::function<void()>& before_sample) {
    gbx::detail::Protocol protocol;
    protocol.warmup_runs = 5;
    protocol.min_samples = 41;
    protocol.cache = gbx::detail::CacheMode::cold;
    gbx::CudaEventTimer timer(stream_);
    gbx::detail::MeasurementHooks hooks;
    hooks.run = run;
    hooks.flush = [&] {
      before_sample();
      gbx_test::launch_spin_for(kBusyNanoseconds, stream_);
    };
    hooks.now_seconds = gbx::steady_now_seconds;
    const gbx::detail::Measurement m = gbx::detail::measure(protocol, timer, hooks);
    EXPECT_EQ(m.batch, 1);
    EXPECT_EQ(m.flushes, static_cast<std::int64_t>(m.samples.size()));
    return m;
  }
  cudaStream_t stream_ = nullptr;
};

// The spin lasts at least its target and overshoots it by at most one sleep step (0.2 us); inside
// the events there is besides the kernel's own start and exit (about a microsecond); events resolve
// 0.5 us. The bounds: [t - 1% - 0.5 us, t + 1% + 3 us], the 1% for a difference in rate between
// %globaltimer and the event clock. A start event on an idle stream adds the launch latency, several
// microseconds: 50 us then lands above the bound.
TEST_F(GpuTiming, DeviceTimeOfAKernelOfKnownDuration) {
  for (const double seconds : {50e-6, 2e-3}) {
    const auto nanoseconds = static_cast<std::uint64_t>(seconds * 1e9);
    const gbx::detail::Measurement m =
        measure_unbatched([&] { gbx_test::launch_spin_for(nanoseconds, stream_); }, [] {});
    const double measured = median(m.samples);
    std::printf("spin for %.0f us: median %.2f us over %zu samples\n", seconds * 1e6, measured * 1e6, m.samples.size());
    EXPECT_GE(measured, seconds * 0.99 - 0.5e-6);
    EXPECT_LE(measured, seconds * 1.01 + 3e-6);
  }
}

// Through the fixture's own timer, hot, with nothing but its pre-roll before each start event: a
// 50 us kernel (one run per sample: it is longer than the batch target) must read as it does
// unbatched behind the 50 us busy stream above, within 1% + 0.5 us (one event resolution). On an
// idle stream the start event would be stamped before the run was launched, adding the launch
// latency, several microseconds, which this bound does not tolerate.
TEST_F(GpuTiming, TheFixturesTimerAddsNoLaunchLatency) {
  constexpr std::uint64_t kNanoseconds = 50'000;
  const auto run = [&] { gbx_test::launch_spin_for(kNanoseconds, stream_); };
  const double reference = median(measure_unbatched(run, [] {}).samples);
  gbx::detail::Protocol protocol;
  protocol.warmup_runs = 5;
  protocol.min_samples = 41;
  gbx::CudaEventTimer timer(stream_);
  gbx::detail::MeasurementHooks hooks;
  hooks.run = run;
  hooks.now_seconds = gbx::steady_now_seconds;
  const gbx::detail::Measurement m = gbx::detail::measure(protocol, timer, hooks);
  const double through_fixture = median(m.samples);
  std::printf("spin for 50 us: through the fixture's timer %.2f us (batch %lld), behind a busy stream %.2f us\n",
              through_fixture * 1e6, static_cast<long long>(m.batch), reference * 1e6);
  EXPECT_NEAR(through_fixture, reference, 0.01 * reference + 0.5e-6);
}

// cold / hot of a read of half the L2 (resident between runs, with room to spare for lines a
// partitioned L2 keeps twice): at least kColdOverHot with the flush, and below it with a test double
// of the flush that does nothing, so that the check shows it can tell them apart. Both are measured
// alike: unbatched, the start event behind the same busy stream; only the flush differs.
constexpr double kColdOverHot = 1.2;

TEST_F(GpuTiming, FlushedReadsOfAnL2SizedWorkingSetAreSlowerAndANoOpFlushIsCaught) {
  gbx::L2FlushBuffer l2;
  const std::size_t count = std::max<std::size_t>(l2.l2_bytes() / 2 / sizeof(float), 1 << 16);
  gbx::DeviceArray<float> data(count);
  gbx::DeviceArray<float> out(1);
  GBX_CUDA_CHECK(cudaMemsetAsync(data.data(), 0, data.bytes(), stream_));
  const auto run = [&] { gbx_test::launch_read_all(data.data(), count, out.data(), stream_); };
  const double hot = median(measure_unbatched(run, [] {}).samples);
  const double cold = median(measure_unbatched(run, [&] { l2.flush(stream_); }).samples);
  const auto no_op_flush = [] {};  // the test double: a flush that evicts nothing
  const double not_flushed = median(measure_unbatched(run, no_op_flush).samples);
  std::printf(
      "read %zu KiB (L2 %zu KiB, flush reads %zu KiB): hot %.2f us, flushed %.2f us (x%.2f), "
      "no-op flush %.2f us (x%.2f)\n",
      count * sizeof(float) / 1024, l2.l2_bytes() / 1024, l2.bytes() / 1024, hot * 1e6, cold * 1e6, cold / hot,
      not_flushed * 1e6, not_flushed / hot);
  EXPECT_GE(cold / hot, kColdOverHot) << "the flush did not evict the working set";
  EXPECT_LT(not_flushed / hot, kColdOverHot) << "the check cannot tell a flush from no flush";
}

}  // namespace

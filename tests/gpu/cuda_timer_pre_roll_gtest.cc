// Without a device: the CUDA calls CudaEventTimer makes, in order, under the measurement loop. Every
// start event must come right after a pre-roll of at least kCudaPreRollNanoseconds on the same
// stream, and be followed by the sample's runs alone, then the stop event; a cold sample's flush
// comes before the pre-roll, outside the timed region. Without the pre-roll, each sample's start
// event would be stamped on an idle stream (the previous sample waited for its stop event), and the
// sample would include the first run's launch latency.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "extensions/cuda_timers.h"
#include "extensions/measurement.h"

namespace {

// Stand-in events are distinct addresses that are never dereferenced.
cudaEvent_t fake_event(int index) { return reinterpret_cast<cudaEvent_t>(static_cast<std::uintptr_t>(0x1000 + index)); }
cudaStream_t fake_stream() { return reinterpret_cast<cudaStream_t>(static_cast<std::uintptr_t>(0x2000)); }

// Logs every call; a sample's device time is 1 us per run logged between its two events.
class LoggingCalls final : public gbx::CudaEventCalls {
 public:
  std::vector<std::string> log;
  std::uint64_t shortest_pre_roll_ns = UINT64_MAX;

  cudaEvent_t create_event() override { return fake_event(events_++); }
  void destroy_event(cudaEvent_t) noexcept override {}
  void pre_roll(cudaStream_t stream, std::uint64_t nanoseconds) override {
    EXPECT_EQ(stream, fake_stream());
    shortest_pre_roll_ns = std::min(shortest_pre_roll_ns, nanoseconds);
    log.push_back("pre_roll");
  }
  void record(cudaEvent_t event, cudaStream_t stream) override {
    EXPECT_EQ(stream, fake_stream());
    log.push_back(event == fake_event(0) ? "start" : "stop");
  }
  double elapsed_seconds(cudaEvent_t, cudaEvent_t) override {
    std::size_t runs = 0;
    for (std::size_t i = log.size(); i-- > 0 && log[i] != "start";) runs += log[i] == "run";
    return 1e-6 * static_cast<double>(runs);
  }

 private:
  int events_ = 0;
};

struct Observed {
  std::vector<std::string> log;
  gbx::detail::Measurement measurement;
  std::uint64_t shortest_pre_roll_ns = 0;
};

Observed measure_with_logging_calls(gbx::detail::CacheMode cache) {
  auto calls = std::make_shared<LoggingCalls>();
  gbx::CudaEventTimer timer(fake_stream(), calls);
  gbx::detail::Protocol protocol;
  protocol.warmup_runs = 2;
  protocol.min_samples = 5;
  protocol.cache = cache;
  gbx::detail::MeasurementHooks hooks;
  hooks.run = [&] { calls->log.push_back("run"); };
  hooks.flush = [&] { calls->log.push_back("flush"); };
  double now = 0.0;
  hooks.now_seconds = [&] { return now += 1e-6; };
  Observed observed;
  observed.measurement = gbx::detail::measure(protocol, timer, hooks);
  observed.log = calls->log;
  observed.shortest_pre_roll_ns = calls->shortest_pre_roll_ns;
  return observed;
}

// Checks the log sample by sample; returns the number of timed regions found.
int expect_pre_rolled_regions(const std::vector<std::string>& log, bool cold) {
  int regions = 0;
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (log[i] != "start") continue;
    ++regions;
    EXPECT_TRUE(i >= 1 && log[i - 1] == "pre_roll") << "start event " << regions << " has no pre-roll right before it";
    if (cold) {
      EXPECT_TRUE(i >= 2 && log[i - 2] == "flush") << "cold sample " << regions << ": no flush before the pre-roll";
    }
    std::size_t j = i + 1;
    while (j < log.size() && log[j] == "run") ++j;
    EXPECT_GT(j, i + 1) << "timed region " << regions << " holds no run";
    EXPECT_TRUE(j < log.size() && log[j] == "stop") << "timed region " << regions << " holds more than runs";
  }
  return regions;
}

TEST(CudaTimerPreRoll, EveryHotStartEventFollowsAPreRollAndPrecedesOnlyTheRuns) {
  const Observed observed = measure_with_logging_calls(gbx::detail::CacheMode::hot);
  ASSERT_GT(observed.measurement.batch, 1) << "the stand-in's 1 us runs must be batched";
  const int regions = expect_pre_rolled_regions(observed.log, false);
  // Calibration batches are timed regions too; each sample is one.
  EXPECT_GE(regions, static_cast<int>(observed.measurement.samples.size()) + 1);
  EXPECT_GE(observed.shortest_pre_roll_ns, gbx::kCudaPreRollNanoseconds);
  EXPECT_GE(gbx::kCudaPreRollNanoseconds, 20'000u) << "shorter than a few launch latencies";
  // The stand-in's device time: exactly 1 us per run, so no pre-roll time leaked into a sample.
  for (const double sample : observed.measurement.samples) EXPECT_DOUBLE_EQ(sample, 1e-6);
}

TEST(CudaTimerPreRoll, ColdSamplesFlushThenPreRollOutsideTheTimedRegion) {
  const Observed observed = measure_with_logging_calls(gbx::detail::CacheMode::cold);
  EXPECT_EQ(observed.measurement.batch, 1);
  const int regions = expect_pre_rolled_regions(observed.log, true);
  EXPECT_EQ(regions, static_cast<int>(observed.measurement.samples.size()));
}

}  // namespace

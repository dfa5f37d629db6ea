// Adaptive stopping with the real precision estimate (the median's order-statistic interval) on
// simulated timers whose noise is known: quiet kernels stop sooner than noisy ones, and a target
// that the bounds cut short is recorded as not reached.
#include <gtest/gtest.h>

#include <cmath>

#include "extensions/measurement.h"
#include "stats/statistics.h"
#include "tests/support/simulated_timer.h"

namespace {

using gbx::detail::Measurement;
using gbx::detail::Protocol;
using gbx_test::SimulatedTimer;

Measurement measure_until(SimulatedTimer& timer, double target, std::int64_t max_samples) {
  Protocol protocol;
  protocol.warmup_runs = 0;
  protocol.min_samples = 30;
  protocol.max_samples = max_samples;
  protocol.max_time_seconds = 1e9;  // only the sample bound may stop these
  gbx::detail::MeasurementHooks hooks;
  hooks.run = [&] { timer.run(); };
  hooks.now_seconds = [&] { return timer.now_seconds(); };
  hooks.enough = [target](const std::vector<double>& samples) {
    const auto relative = gbx::median_relative_half_width(samples);
    return relative && *relative <= target;
  };
  return gbx::detail::measure(protocol, timer, hooks);
}

TEST(AdaptiveStopping, QuietKernelsStopSoonerThanNoisyOnes) {
  // Both 1 ms runs; lognormal sigma 0.2% against 5%. For the median's interval to shrink to
  // +/-0.5%, the noisy one needs about (5 / 0.2)^2 = 625 times the samples.
  SimulatedTimer quiet = SimulatedTimer::lognormal(1e-3, 0.002, 11);
  SimulatedTimer noisy = SimulatedTimer::lognormal(1e-3, 0.05, 11);
  const Measurement q = measure_until(quiet, 0.005, 5000);
  const Measurement n = measure_until(noisy, 0.005, 5000);
  EXPECT_TRUE(q.enough_reached);
  EXPECT_TRUE(n.enough_reached);
  EXPECT_EQ(q.samples.size(), 30u) << "the quiet kernel meets +/-0.5% at the first check";
  EXPECT_GT(n.samples.size(), 3 * q.samples.size());
  EXPECT_LT(n.samples.size(), 5000u);
  // The rule checks every 10 samples after the minimum.
  EXPECT_EQ((n.samples.size() - 30) % 10, 0u);
  const auto achieved = gbx::median_relative_half_width(n.samples);
  ASSERT_TRUE(achieved.has_value());
  EXPECT_LE(*achieved, 0.005);
}

TEST(AdaptiveStopping, ATargetCutShortByMaxSamplesIsRecordedAsNotReached) {
  SimulatedTimer noisy = SimulatedTimer::lognormal(1e-3, 0.5, 3);
  const Measurement m = measure_until(noisy, 0.001, 200);
  EXPECT_EQ(m.samples.size(), 200u);
  EXPECT_FALSE(m.enough_reached);
  EXPECT_TRUE(m.sample_bound_reached);
  const auto achieved = gbx::median_relative_half_width(m.samples);
  ASSERT_TRUE(achieved.has_value());
  EXPECT_GT(*achieved, 0.001);
}

TEST(MedianRelativeHalfWidth, HandComputedAndAbsentWhenTooFewSamples) {
  // n = 9: the 95% order-statistic interval for the median is [x_(2), x_(8)] (coverage 0.961).
  const std::vector<double> samples = {9, 1, 8, 2, 7, 3, 6, 4, 5};
  const auto relative = gbx::median_relative_half_width(samples);
  ASSERT_TRUE(relative.has_value());
  EXPECT_DOUBLE_EQ(*relative, 0.5 * (8.0 - 2.0) / 5.0);
  EXPECT_FALSE(gbx::median_relative_half_width({1.0, 2.0, 3.0}).has_value()) << "n = 3 cannot reach 95%";
  EXPECT_FALSE(gbx::median_relative_half_width({}).has_value());
}

}  // namespace

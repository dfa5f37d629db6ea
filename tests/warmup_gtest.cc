// Auto warm-up (--gbx_warmup=auto) on simulated timers with known warm-up curves: exponential decay,
// a step, none, and one that never settles. Each test prints how far the detected end lies from the
// true one (docs/energy.md quotes these figures).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

#include "extensions/measurement.h"
#include "extensions/warmup.h"
#include "tests/support/simulated_timer.h"

namespace gbx {
namespace {

constexpr double kBase = 1e-3;  // the steady run time

// A timer whose i-th run takes kBase * curve(i) * lognormal(0, 0.5%) noise.
gbx_test::SimulatedTimer curve_timer(std::function<double(std::int64_t)> curve, std::uint64_t seed) {
  auto run = std::make_shared<std::int64_t>(0);
  return gbx_test::SimulatedTimer([curve, run, noise = std::lognormal_distribution<double>(0.0, 0.005)](
                                      std::mt19937_64& rng) mutable { return kBase * curve((*run)++) * noise(rng); },
                                  seed);
}

detail::Protocol auto_protocol() {
  detail::Protocol p;
  p.warmup_auto = true;
  p.warmup_max_samples = 2000;
  p.max_time_seconds = 1e9;  // the simulated clock never runs out
  p.min_samples = 10;
  p.max_samples = 10;
  return p;
}

detail::Measurement measure_with(gbx_test::SimulatedTimer& timer, const detail::Protocol& protocol,
                                 std::function<std::optional<double>()> clock = {}) {
  detail::MeasurementHooks hooks;
  hooks.run = [&] { timer.run(); };
  hooks.now_seconds = [&] { return timer.now_seconds(); };
  hooks.sm_clock_mhz = std::move(clock);
  return measure(protocol, timer, hooks);
}

// The detected end minus the true one, in runs, printed for the record.
std::int64_t report(const char* curve, const detail::Measurement& m, std::int64_t true_end) {
  const std::int64_t error = m.warmup.runs - true_end;
  std::printf("[ warm-up ] %s: true end %lld, detected %lld (%s), error %+lld runs\n", curve,
              static_cast<long long>(true_end), static_cast<long long>(m.warmup.runs), m.warmup.stopped.c_str(),
              static_cast<long long>(error));
  return error;
}

TEST(WarmupAuto, ExponentialDecayEndsSoonAfterTheCurveSettles) {
  // 1 + e^(-i/50): within 1% (half the 2% tolerance) of the steady time from i = 50 ln 100 = 230.
  const std::int64_t true_end = static_cast<std::int64_t>(std::ceil(50.0 * std::log(100.0)));
  for (std::uint64_t seed : {1, 2, 3}) {
    auto timer = curve_timer([](std::int64_t i) { return 1.0 + std::exp(-static_cast<double>(i) / 50.0); }, seed);
    const detail::Measurement m = measure_with(timer, auto_protocol());
    EXPECT_EQ(m.warmup.mode, "auto");
    EXPECT_EQ(m.warmup.stopped, "steady_state");
    EXPECT_TRUE(m.warmup.steady);
    EXPECT_EQ(m.warmup_runs, m.warmup.runs);
    const std::int64_t error = report("exponential decay, tau 50 runs", m, true_end);
    // Never while 4% (twice the tolerance) slower: from run 50 ln 25 = 161 on; at most twice the true end.
    EXPECT_GE(m.warmup.runs, 161) << "stopped while the decay still exceeded twice the tolerance";
    EXPECT_LE(error, true_end);
  }
}

TEST(WarmupAuto, AStepWithinTheFirstWindowIsWaitedOutAndNotMuchMore) {
  const std::int64_t true_end = 12;  // 50% slower for the first 12 runs
  for (std::uint64_t seed : {4, 5, 6}) {
    auto timer = curve_timer([](std::int64_t i) { return i < 12 ? 1.5 : 1.0; }, seed);
    const detail::Measurement m = measure_with(timer, auto_protocol());
    EXPECT_EQ(m.warmup.stopped, "steady_state");
    const std::int64_t error = report("step at run 12", m, true_end);
    EXPECT_GE(error, 0) << "the step must be past before warm-up ends";
    EXPECT_LE(error, 20);  // one window (20 samples) after the step at most
  }
}

TEST(WarmupAuto, AStepAfterASteadyWindowIsNotForeseen) {
  // The limit of any online rule: 20 flat samples look steady, whatever comes later. The samples'
  // own slow_start and drift flags (stats/outliers.h) catch such a step after the fact.
  auto timer = curve_timer([](std::int64_t i) { return i < 300 ? 1.5 : 1.0; }, 11);
  const detail::Measurement m = measure_with(timer, auto_protocol());
  EXPECT_EQ(m.warmup.stopped, "steady_state");
  EXPECT_EQ(report("step at run 300 (not foreseeable)", m, 300), 20 - 300);
}

TEST(WarmupAuto, NoWarmUpCurveStopsAtTheFirstWindow) {
  auto timer = curve_timer([](std::int64_t) { return 1.0; }, 7);
  const detail::Measurement m = measure_with(timer, auto_protocol());
  EXPECT_EQ(m.warmup.stopped, "steady_state");
  EXPECT_EQ(report("none", m, 0), 20);  // one window of evidence is the least it can take
}

TEST(WarmupAuto, ATimingThatNeverSettlesIsFlaggedAtTheBound) {
  // A slowdown that never stops, 0.5% per run (Barrett et al. saw such).
  auto timer = curve_timer([](std::int64_t i) { return 1.0 + 0.005 * static_cast<double>(i); }, 8);
  detail::Protocol protocol = auto_protocol();
  protocol.warmup_max_samples = 300;
  const detail::Measurement m = measure_with(timer, protocol);
  EXPECT_EQ(m.warmup.stopped, "max_samples");
  EXPECT_FALSE(m.warmup.steady);
  EXPECT_EQ(m.warmup.samples, 300);
  EXPECT_EQ(m.samples.size(), 10u);  // the measurement still goes on
}

TEST(WarmupAuto, ASettledTimingWaitsForTheSmClock) {
  // Steady timings, but the SM clock ramps from 1200 to 1980 MHz over the first 150 samples.
  auto timer = curve_timer([](std::int64_t) { return 1.0; }, 9);
  int reads = 0;
  const detail::Measurement m = measure_with(timer, auto_protocol(), [&]() -> std::optional<double> {
    const int i = reads++;
    return i < 150 ? 1200.0 + 780.0 * i / 150.0 : 1980.0;
  });
  EXPECT_EQ(m.warmup.stopped, "steady_state");
  report("steady timings, SM clock ramp to sample 150", m, 150);
  EXPECT_GE(m.warmup.runs, 150);
  EXPECT_LE(m.warmup.runs, 150 + 20);
}

TEST(WarmupAuto, ChangePointTestOnHandBuiltWindows) {
  detail::SteadyStateRule rule;
  std::vector<double> flat(20, 1.0);
  for (std::size_t i = 0; i < flat.size(); ++i) flat[i] += 0.001 * static_cast<double>(i % 3);
  EXPECT_FALSE(change_point_in_window(flat, rule));
  std::vector<double> step = flat;
  for (std::size_t i = 12; i < step.size(); ++i) step[i] *= 1.1;
  ASSERT_TRUE(change_point_in_window(step, rule));
  EXPECT_NEAR(static_cast<double>(*change_point_in_window(step, rule)), 12.0, 1.0);
  std::vector<double> small = flat;  // 1% is inside the 2% tolerance
  for (std::size_t i = 10; i < small.size(); ++i) small[i] *= 1.01;
  EXPECT_FALSE(change_point_in_window(small, rule));
}

TEST(WarmupAuto, FixedCountIsRecordedAsSuch) {
  auto timer = curve_timer([](std::int64_t) { return 1.0; }, 10);
  detail::Protocol protocol;
  protocol.warmup_runs = 7;
  protocol.min_samples = 5;
  protocol.max_samples = 5;
  const detail::Measurement m = measure_with(timer, protocol);
  EXPECT_EQ(m.warmup.mode, "fixed");
  EXPECT_EQ(m.warmup.stopped, "count");
  EXPECT_EQ(m.warmup.runs, 7);
}

}  // namespace
}  // namespace gbx

namespace gbx {
namespace {

TEST(WarmupFlags, AutoAndItsBoundParseAndBadValuesAreRefused) {
  const detail::CommandLine line = detail::parse_command_line({"--gbx_warmup=auto", "--gbx_warmup_max=50"});
  EXPECT_TRUE(line.protocol.warmup_auto);
  EXPECT_EQ(line.protocol.warmup_max_samples, 50);
  EXPECT_FALSE(detail::parse_command_line({"--gbx_warmup=3"}).protocol.warmup_auto);
  const auto refusal = [](const std::vector<std::string>& args) -> std::string {
    try {
      detail::parse_command_line(args);
    } catch (const detail::FlagError& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_NE(refusal({"--gbx_warmup=automatic"}).find("'automatic' for --gbx_warmup"), std::string::npos);
  EXPECT_NE(refusal({"--gbx_warmup_max=5"}).find("needs --gbx_warmup=auto"), std::string::npos);
  EXPECT_NE(refusal({"--gbx_warmup=auto", "--gbx_warmup_max=0"}).find("'0' for --gbx_warmup_max"), std::string::npos);
}

}  // namespace
}  // namespace gbx

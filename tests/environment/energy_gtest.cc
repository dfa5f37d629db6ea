// Energy per run from a scripted NVML counter (tests/environment/fake_nvml.cc, on LD_LIBRARY_PATH)
// and from a stand-in powercap tree; clocks and throttle reasons from the sampler.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <thread>

#include "environment/benchmark_observer.h"
#include "environment/clock_sampler.h"
#include "environment/energy_tally.h"
#include "environment/nvml.h"
#include "environment/powercap.h"
#include "extensions/measurement.h"
#include "tests/support/fake_tree.h"
#include "tests/support/simulated_timer.h"

namespace gbx {
namespace {

const std::array<unsigned char, 16> kFakeUuid = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                                 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};

// Sets an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ScopedEnv() { ::unsetenv(name_); }

 private:
  const char* name_;
};

// The observer with the fake NVML and no RAPL, its clock sampler reading every `period`.
EnvironmentObserver::Options gpu_only_options(std::chrono::microseconds period) {
  EnvironmentObserver::Options options;
  options.powercap_root = "/nonexistent/powercap";
  options.clock_period = period;
  return options;
}

TEST(EnergyTally, ScriptedCounterGivesJoulesPerRunWithATInterval) {
  // Three samples of 10 runs: 0.5 J, 1.0 J, 1.5 J -> 0.05, 0.10, 0.15 J per run; mean 0.1 J.
  // t interval: sd 0.05, se 0.05/sqrt(3), t(0.975, 2) = 4.302653 -> 0.1 +/- 0.124207.
  ScopedEnv script("FAKE_NVML_ENERGY_MJ", "1000,1500,1500,2500,2500,4000");
  NvmlSession nvml;
  ASSERT_EQ(nvml.unavailable(), "");
  std::string why;
  NvmlDevice* device = nvml.device("GPU-00112233-4455-6677-8899-aabbccddeeff", why);
  ASSERT_NE(device, nullptr) << why;
  EnergyTally tally("nvml", 1e-3);
  for (int sample = 0; sample < 3; ++sample) {
    tally.before(static_cast<double>(*nvml.total_energy_mj(device, why)) * 1e-3, sample * 1.0);
    tally.after(static_cast<double>(*nvml.total_energy_mj(device, why)) * 1e-3, sample * 1.0 + 0.5, 10);
  }
  const detail::EnergyUse use = tally.result();
  ASSERT_TRUE(use.joules_per_run);
  EXPECT_NEAR(*use.joules_per_run, 0.1, 1e-12);
  EXPECT_NEAR(*use.lower, 0.1 - 0.124207, 1e-6);
  EXPECT_NEAR(*use.upper, 0.1 + 0.124207, 1e-6);
  EXPECT_NEAR(use.joules, 3.0, 1e-12);
  EXPECT_NEAR(*use.average_watts, 3.0 / 1.5, 1e-12);
  EXPECT_EQ(use.runs, 30);
}

TEST(EnergyTally, NoCounterSaysWhy) {
  NvmlSession nvml;  // FAKE_NVML_ENERGY_MJ unset: the fake answers Not Supported, as before Volta
  std::string why;
  NvmlDevice* device = nvml.device("GPU-00112233-4455-6677-8899-aabbccddeeff", why);
  ASSERT_NE(device, nullptr);
  EXPECT_FALSE(nvml.total_energy_mj(device, why));
  EXPECT_NE(why.find("Not Supported"), std::string::npos) << why;
  EXPECT_EQ(nvml.device("GPU-ffffffff-4455-6677-8899-aabbccddeeff", why), nullptr);
  EXPECT_NE(why.find("Not Found"), std::string::npos) << why;
}

// "v0,v0+1,...": each NVML call answers the next value, so a value read says how many calls came before.
std::string counting_series(unsigned long long first) {
  std::string text;
  for (unsigned long long v = first; v < first + 100; ++v) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

TEST(Observer, FlagsClocksAroundAMeasurementAndResolvesNoEnergyFromAStillCounter) {
  ScopedEnv energy("FAKE_NVML_ENERGY_MJ", "5000");  // never moves
  ScopedEnv sm("FAKE_NVML_SM_MHZ", "1980,1410");
  ScopedEnv reasons("FAKE_NVML_REASONS", "0,0x40");
  const EnvironmentObserver::Options options = gpu_only_options(std::chrono::microseconds(1000));
  EnvironmentObserver observer(options);
  observer.benchmark_started(kFakeUuid);
  auto timer = gbx_test::SimulatedTimer::constant(1e-3, 1e-5);
  detail::Protocol protocol;
  protocol.warmup_runs = 0;
  protocol.min_samples = 4;
  protocol.max_samples = 4;
  protocol.batch_resolution_factor = 400.0;  // 4 ms samples of 1 ms runs: batches of several runs
  detail::MeasurementHooks hooks;
  hooks.run = [&] { timer.run(); };
  hooks.now_seconds = [&] { return timer.now_seconds(); };
  hooks.sample_started = [&] { observer.sample_started(); };
  hooks.sample_finished = [&](std::int64_t runs) { observer.sample_finished(runs); };
  const detail::Measurement m = measure(protocol, timer, hooks);
  ASSERT_GT(m.batch, 1);
  const detail::Observations seen = observer.benchmark_finished();
  ASSERT_TRUE(seen.gpu_energy);
  EXPECT_FALSE(seen.gpu_energy->joules_per_run);  // not 0.0 J
  EXPECT_EQ(seen.gpu_energy->unavailable.rfind("not resolved: ", 0), 0u) << seen.gpu_energy->unavailable;
  EXPECT_EQ(seen.gpu_energy->runs, 4 * m.batch);
  EXPECT_EQ(seen.gpu_energy->samples, 4);
  ASSERT_TRUE(seen.cpu_energy);
  EXPECT_FALSE(seen.cpu_energy->joules_per_run);
  EXPECT_NE(seen.cpu_energy->unavailable.find("does not exist"), std::string::npos);
  ASSERT_TRUE(seen.clocks);
  EXPECT_TRUE(seen.clocks->clock_changed);
  EXPECT_EQ(*seen.clocks->sm_mhz_min, 1410);
  EXPECT_EQ(*seen.clocks->sm_mhz_max, 1980);
  EXPECT_GE(seen.clocks->thermal_readings, 1);
  EXPECT_EQ(seen.clocks->thermal_readings, seen.clocks->readings - 1);  // all but the first reading
  EXPECT_EQ(seen.clocks->throttle_reasons, std::vector<std::string>{"hw_thermal_slowdown"});
}

// One NVML call took 3.5 ms on an H200 VM: the samples and the warm-up's clock checks make none. With
// the sampler asleep (an hour's period), each scripted NVML answer read here, before and after 1000
// samples, is the next one in its series.
TEST(Observer, SamplesAndClockChecksMakeNoNvmlCall) {
  static unsigned long long first = 7000;  // a new series for each repetition (--gtest_repeat)
  const std::string series = counting_series(first += 1000);
  ScopedEnv energy("FAKE_NVML_ENERGY_MJ", series.c_str());
  ScopedEnv sm("FAKE_NVML_SM_MHZ", series.c_str());
  ScopedEnv memory("FAKE_NVML_MEMORY_MHZ", series.c_str());
  ScopedEnv reasons("FAKE_NVML_REASONS", series.c_str());
  const EnvironmentObserver::Options options = gpu_only_options(std::chrono::hours(1));
  EnvironmentObserver observer(options);
  observer.benchmark_started(kFakeUuid);
  NvmlSession nvml;
  std::string why;
  NvmlDevice* device = nvml.device("GPU-00112233-4455-6677-8899-aabbccddeeff", why);
  ASSERT_NE(device, nullptr) << why;
  const unsigned long long energy_before = *nvml.total_energy_mj(device, why);
  const unsigned sm_before = *nvml.sm_clock_mhz(device);
  const unsigned memory_before = *nvml.memory_clock_mhz(device);
  const unsigned long long reasons_before = *nvml.clock_event_reasons(device);
  for (int sample = 0; sample < 1000; ++sample) {
    observer.sample_started();
    observer.sample_finished(3);
    EXPECT_TRUE(observer.sm_clock_mhz());
  }
  EXPECT_EQ(*nvml.total_energy_mj(device, why), energy_before + 1);
  EXPECT_EQ(*nvml.sm_clock_mhz(device), sm_before + 1);
  EXPECT_EQ(*nvml.memory_clock_mhz(device), memory_before + 1);
  EXPECT_EQ(*nvml.clock_event_reasons(device), reasons_before + 1);
  observer.benchmark_finished();
}

// The counter read on the sampler's thread every millisecond, each reading 12 J above the last,
// around five samples of 30 ms: many steps in the span, so a figure (the power between the steps
// times the span), bounded by the bracketing rise and a step at each end.
TEST(Observer, GpuEnergyComesFromTheSamplersReadingsAroundTheSpan) {
  std::string ramp;
  for (int i = 0; i < 3000; ++i) ramp += (ramp.empty() ? "" : ",") + std::to_string(12000 * i);
  ScopedEnv energy("FAKE_NVML_ENERGY_MJ", ramp.c_str());
  const EnvironmentObserver::Options options = gpu_only_options(std::chrono::microseconds(1000));
  EnvironmentObserver observer(options);
  observer.benchmark_started(kFakeUuid);
  for (int sample = 0; sample < 5; ++sample) {
    observer.sample_started();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    observer.sample_finished(10);
  }
  const detail::Observations seen = observer.benchmark_finished();
  ASSERT_TRUE(seen.gpu_energy);
  const detail::EnergyUse& use = *seen.gpu_energy;
  ASSERT_TRUE(use.joules_per_run) << use.unavailable;
  EXPECT_EQ(use.samples, 5);
  EXPECT_EQ(use.runs, 50);
  EXPECT_GE(use.joules, 24.0);
  EXPECT_DOUBLE_EQ(*use.joules_per_run, use.joules / 50.0);
  // The bound: the rise between the bracketing readings (whole 12 J steps), less and plus two steps.
  const double bracketed = (*use.lower + *use.upper) / 2.0 * 50.0;
  EXPECT_NEAR(std::remainder(bracketed, 12.0), 0.0, 1e-6) << bracketed;
  EXPECT_NEAR((*use.upper - *use.lower) * 50.0, 48.0, 1e-9);
  EXPECT_GE(*use.joules_per_run, *use.lower);
  EXPECT_LE(*use.joules_per_run, *use.upper);
  EXPECT_DOUBLE_EQ(use.resolution_joules, 12.0);
  EXPECT_GE(use.seconds, 0.15);
  EXPECT_NEAR(*use.average_watts, use.joules / use.seconds, 1e-9 * *use.average_watts);
  ASSERT_TRUE(use.duty);
  EXPECT_GT(*use.duty, 0.9);  // back-to-back samples
  EXPECT_LE(*use.duty, 1.0);
}

// The warm-up asks for the SM clock once per sample: the sampler's latest reading answers (1755,
// its first; NVML itself would now say 1000).
TEST(Observer, TheSmClockComesFromTheSampler) {
  ScopedEnv sm("FAKE_NVML_SM_MHZ", "1755,1000");
  const EnvironmentObserver::Options options = gpu_only_options(std::chrono::hours(1));
  EnvironmentObserver observer(options);
  EXPECT_FALSE(observer.sm_clock_mhz());  // no benchmark, no sampler
  observer.benchmark_started(kFakeUuid);
  for (int check = 0; check < 3; ++check) {
    ASSERT_TRUE(observer.sm_clock_mhz());
    EXPECT_DOUBLE_EQ(*observer.sm_clock_mhz(), 1755.0);
  }
  observer.benchmark_finished();
  EXPECT_FALSE(observer.sm_clock_mhz());
}

// A counter that never moved in what was measured resolved nothing: no 0 J per run.
TEST(EnergyTally, ACounterThatNeverAdvancedIsNotResolved) {
  EnergyTally tally("rapl", 1e-6);
  tally.before(12.0, 0.0);
  tally.after(12.0, 0.108, 90);
  const detail::EnergyUse use = tally.result();
  EXPECT_FALSE(use.joules_per_run);
  EXPECT_FALSE(use.average_watts);
  EXPECT_EQ(use.unavailable, "not resolved: the counter did not advance in the 0.108 s measured");
}

TEST(ClockSampler, SummaryOfSteadyClocksIsUnflagged) {
  const std::vector<ClockReading> readings = {{1980, 2619, 0}, {1975, 2619, 0}, {1980, 2619, 0x4}};
  const detail::ClockObservation c = summarize_clocks(readings, 0.01);
  EXPECT_FALSE(c.clock_changed);  // 5 MHz of 1980: within tolerance
  EXPECT_DOUBLE_EQ(*c.sm_mhz_mean, (1980.0 + 1975.0 + 1980.0) / 3.0);
  EXPECT_EQ(c.power_readings, 1);
  EXPECT_EQ(c.thermal_readings, 0);
  EXPECT_EQ(summarize_clocks({{}, {}}, 0.01).unavailable, "no reading of the clocks succeeded");
}

TEST(Powercap, SumsPackagesAndUndoesAWrap) {
  gbx_test::FakeTree powercap;
  powercap.write("intel-rapl:0/name", "package-0");
  powercap.write("intel-rapl:0/energy_uj", "900000");
  powercap.write("intel-rapl:0/max_energy_range_uj", "1000000");
  powercap.write("intel-rapl:0:0/energy_uj", "5");  // a sub-domain, inside package 0: not summed
  powercap.write("intel-rapl:1/name", "package-1");
  powercap.write("intel-rapl:1/energy_uj", "0");
  powercap.write("intel-rapl:1/max_energy_range_uj", "1000000");
  PowercapMeter meter(powercap.root());
  ASSERT_EQ(meter.unavailable(), "");
  EXPECT_EQ(meter.source(), "RAPL package-0 + package-1 (powercap energy_uj)");
  EXPECT_DOUBLE_EQ(*meter.joules(), 0.0);
  powercap.write("intel-rapl:0/energy_uj", "100000");  // wrapped: 0.1 J to the top, 0.1 J after
  powercap.write("intel-rapl:1/energy_uj", "300000");
  EXPECT_NEAR(*meter.joules(), 0.5, 1e-12);
}

TEST(Powercap, NoTreeOrNoPackageSaysWhy) {
  EXPECT_NE(PowercapMeter("/nonexistent/powercap").unavailable().find("does not exist"), std::string::npos);
  gbx_test::FakeTree empty;
  empty.write("dtpm/name", "dtpm");
  PowercapMeter meter(empty.root());
  EXPECT_NE(meter.unavailable().find("no intel-rapl"), std::string::npos);
  EXPECT_FALSE(meter.joules());
}

}  // namespace
}  // namespace gbx

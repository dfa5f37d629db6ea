// The GPU's energy over a benchmark's measured span, from a counter read on the sampler's thread
// (environment/energy_tally.h: span_energy), against a counter whose readings are known; and the
// duty's trip through the record.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "environment/energy_tally.h"
#include "writer/observations_json.h"

namespace gbx {
namespace {

// NVML's counter as on the H200: 12 J every 100 ms (120 W), moving at 0.05 s, 0.15 s, ...; read
// every 10 ms from 0 to 2 s, as the sampler does.
std::vector<CounterReading> h200_counter() {
  std::vector<CounterReading> readings;
  for (int i = 0; i <= 200; ++i) readings.push_back({i * 0.01, 1000.0 + 12.0 * ((i + 5) / 10)});
  return readings;
}

// samples windows of `window` seconds from `start`, evenly spread so that the last ends at `end`.
SampleSpan span_of(double start, double end, int samples, double window, std::int64_t runs) {
  SampleSpan span;
  const double gap = (end - start - samples * window) / (samples - 1);
  for (int k = 0; k < samples; ++k) {
    const double from = start + k * (window + gap);
    span.add(from, k == samples - 1 ? end : from + window, runs);
  }
  return span;
}

// A span of 1 s (0.302 to 1.302 s) of 30 samples of 90 runs, 30 ms each: the steps seen inside it,
// 0.35 s (1048 J) to 1.25 s (1156 J), give 120 W, so 120 J over 2700 runs, 0.04444 J per run; the
// readings at 0.30 s (1036 J) and 1.31 s (1156 J) bracket it, 120 J, and each end may be one 12 J
// step off: [96, 144] J / 2700. The samples fill 0.9 s of the span.
TEST(EnergySpan, ACounterSteppingEvery100msOverOneSecond) {
  const SampleSpan span = span_of(0.302, 1.302, 30, 0.03, 90);
  const detail::EnergyUse use = span_energy("nvml", h200_counter(), span, 1e-3);
  ASSERT_TRUE(use.joules_per_run) << use.unavailable;
  EXPECT_EQ(use.unavailable, "");
  EXPECT_NEAR(use.joules, 120.0, 1e-9);
  EXPECT_NEAR(*use.joules_per_run, 120.0 / 2700.0, 1e-12);
  EXPECT_DOUBLE_EQ(*use.lower, 96.0 / 2700.0);
  EXPECT_DOUBLE_EQ(*use.upper, 144.0 / 2700.0);
  EXPECT_NEAR(use.seconds, 1.0, 1e-9);
  EXPECT_NEAR(*use.average_watts, 120.0, 1e-6);
  ASSERT_TRUE(use.duty);
  EXPECT_NEAR(*use.duty, 0.9, 1e-9);
  EXPECT_EQ(use.samples, 30);
  EXPECT_EQ(use.runs, 2700);
  EXPECT_DOUBLE_EQ(use.resolution_joules, 12.0);  // the step, not NVML's 1 mJ unit
}

// 0.345 to 1.345 s: the readings at 0.34 s (1036 J, just before the step at 0.35 s) and 1.35 s
// (1168 J, just after the one at 1.35 s) bracket it: 132 J, a step above the 120 J spent. The
// steps seen inside, 0.35 s (1048 J) to 1.35 s (1168 J), give 120 W, so 120 J; the bound is the
// bracketing rise, [132 - 24, 132 + 24] J.
TEST(EnergySpan, TheEnergyIsThePowerBetweenStepsTimesTheSpanAndTheBoundTheBracketingRise) {
  const detail::EnergyUse use = span_energy("nvml", h200_counter(), span_of(0.345, 1.345, 30, 0.03, 90), 1e-3);
  ASSERT_TRUE(use.joules_per_run) << use.unavailable;
  EXPECT_NEAR(use.joules, 120.0, 1e-9);
  EXPECT_NEAR(*use.average_watts, 120.0, 1e-9);
  EXPECT_DOUBLE_EQ(*use.lower, 108.0 / 2700.0);
  EXPECT_DOUBLE_EQ(*use.upper, 156.0 / 2700.0);
}

// A span of 0.202 s (0.349 to 0.551 s), two counter periods, as the H200's long CUDA rows: the
// bracketing readings (0.34 s, 1036 J; 0.56 s, 1072 J) hold 36 J, 178 W over the span, where 120 W
// were spent (the H200 read 702 W so). The steps at 0.35 and 0.55 s give 24 J in 0.2 s: 120 W, and
// 24.24 J over the span.
TEST(EnergySpan, ASpanOfTwoPeriodsIsNotInflatedByTheBracketingReadings) {
  const detail::EnergyUse use = span_energy("nvml", h200_counter(), span_of(0.349, 0.551, 10, 0.02, 5), 1e-3);
  ASSERT_TRUE(use.joules_per_run) << use.unavailable;
  EXPECT_NEAR(*use.average_watts, 120.0, 1e-9);
  EXPECT_NEAR(use.joules, 120.0 * 0.202, 1e-9);
  EXPECT_NEAR(*use.joules_per_run, 120.0 * 0.202 / 50.0, 1e-12);
  EXPECT_LE(*use.lower, *use.joules_per_run);
  EXPECT_GE(*use.upper, *use.joules_per_run);
}

// 0.302 to 0.402 s: the bracketing readings (0.30 s, 1036 J; 0.41 s, 1048 J) hold one step. That is
// anything from 0 to 24 J: not a figure, and not 0.0 either.
TEST(EnergySpan, ASpanOfOneUpdatePeriodIsNotResolved) {
  const detail::EnergyUse use = span_energy("nvml", h200_counter(), span_of(0.302, 0.402, 30, 0.003, 3), 1e-3);
  EXPECT_FALSE(use.joules_per_run);
  EXPECT_FALSE(use.lower);
  EXPECT_FALSE(use.upper);
  EXPECT_FALSE(use.average_watts);
  EXPECT_TRUE(std::isnan(use.joules));  // written as null
  EXPECT_EQ(use.unavailable,
            "not resolved: the span, 0.1 s, held 1 step(s) of the counter, which moves every 0.1 s; at least 2 are "
            "needed");
  EXPECT_EQ(use.samples, 30);
  EXPECT_EQ(use.runs, 90);
  EXPECT_NEAR(use.seconds, 0.1, 1e-9);
  EXPECT_DOUBLE_EQ(use.resolution_joules, 12.0);
}

// 0.352 to 0.402 s lies between two steps (0.35 s and 0.45 s): the readings at 0.35 and 0.41 s agree.
TEST(EnergySpan, ASpanBetweenTwoStepsIsNotResolved) {
  const detail::EnergyUse use = span_energy("nvml", h200_counter(), span_of(0.352, 0.402, 5, 0.005, 3), 1e-3);
  EXPECT_FALSE(use.joules_per_run);
  EXPECT_NE(use.unavailable.find("held 0 step(s)"), std::string::npos) << use.unavailable;
}

TEST(EnergySpan, ACounterThatNeverMovedSaysSo) {
  std::vector<CounterReading> still;
  for (int i = 0; i <= 200; ++i) still.push_back({i * 0.01, 5.0});
  const detail::EnergyUse use = span_energy("nvml", still, span_of(0.302, 1.302, 30, 0.03, 90), 1e-3);
  EXPECT_FALSE(use.joules_per_run);
  EXPECT_EQ(use.unavailable,
            "not resolved: the span, 1 s, held 0 step(s) of the counter, which moved 0 time(s) in the 2 s read; at "
            "least 2 are needed");
  EXPECT_DOUBLE_EQ(use.resolution_joules, 1e-3);  // no step seen: the counter's unit
}

TEST(EnergySpan, NoBracketingReadingOrNoSampleSaysWhy) {
  std::vector<CounterReading> late = h200_counter();
  late.erase(late.begin(), late.begin() + 50);  // the first reading at 0.5 s, after the span's start
  EXPECT_EQ(span_energy("nvml", late, span_of(0.302, 1.302, 30, 0.03, 90), 1e-3).unavailable,
            "no two readings of the counter bracketed the samples");
  EXPECT_EQ(span_energy("nvml", h200_counter(), SampleSpan{}, 1e-3).unavailable, "no sample was measured");
}

// The duty reaches the record and back; where nothing was resolved the joules are null, not 0.0.
TEST(EnergySpan, TheRecordHoldsTheDutyAndNoNumberWhereNothingWasResolved) {
  detail::Observations seen;
  seen.gpu_energy = span_energy("nvml", h200_counter(), span_of(0.302, 1.302, 30, 0.03, 90), 1e-3);
  const nlohmann::json j = energy_json(seen);
  EXPECT_NEAR(j["gpu"]["duty"].get<double>(), 0.9, 1e-9);
  EXPECT_NEAR(*observations_from_json(j, nullptr).gpu_energy->duty, 0.9, 1e-9);

  detail::Observations short_span;
  short_span.gpu_energy = span_energy("nvml", h200_counter(), span_of(0.302, 0.402, 30, 0.003, 3), 1e-3);
  const nlohmann::json none = energy_json(short_span)["gpu"];
  EXPECT_TRUE(none["joules"].is_null());
  EXPECT_TRUE(none["joules_per_run"].is_null());
  EXPECT_TRUE(none["lower"].is_null());
  EXPECT_EQ(none["unavailable"].get<std::string>().rfind("not resolved", 0), 0u);
  EXPECT_EQ(energy_json(short_span).dump().find("NaN"), std::string::npos);

  // Two processes' spans, 1 s at duty 0.9 and 3 s at 0.5: 2.4 s of 4 s inside samples.
  detail::Observations a = seen, b = seen;
  b.gpu_energy->seconds = 3.0;
  b.gpu_energy->duty = 0.5;
  const detail::Observations merged = merge_observations({&a, &b});
  ASSERT_TRUE(merged.gpu_energy->duty);
  EXPECT_NEAR(*merged.gpu_energy->duty, 2.4 / 4.0, 1e-9);
}

}  // namespace
}  // namespace gbx

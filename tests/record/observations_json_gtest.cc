// Energy and clocks survive the trip from a child process, and several processes' merge into one.
#include <gtest/gtest.h>

#include "writer/observations_json.h"

namespace gbx {
namespace {

detail::Observations process(double joules, std::int64_t runs, double sm_min, double sm_max, std::uint64_t mask) {
  detail::Observations o;
  detail::EnergyUse use;
  use.source = "nvml";
  use.joules = joules;
  use.runs = runs;
  use.samples = runs / 10;
  use.seconds = 1.0;
  use.joules_per_run = joules / static_cast<double>(runs);
  o.gpu_energy = use;
  o.cpu_energy = detail::EnergyUse{};
  o.cpu_energy->source = "RAPL (powercap)";
  o.cpu_energy->unavailable = "no powercap";
  detail::ClockObservation c;
  c.readings = 10;
  c.sm_mhz_min = sm_min;
  c.sm_mhz_max = sm_max;
  c.sm_mhz_mean = (sm_min + sm_max) / 2.0;
  c.throttle_mask = mask;
  c.throttle_reasons = mask ? std::vector<std::string>{"sw_power_cap"} : std::vector<std::string>{};
  c.power_readings = mask ? 4 : 0;
  o.clocks = c;
  return o;
}

TEST(ObservationsJson, RoundTripKeepsEveryField) {
  const detail::Observations o = process(3.0, 30, 1980, 1980, 0x4);
  const detail::Observations back = observations_from_json(energy_json(o), clocks_json(o));
  ASSERT_TRUE(back.gpu_energy && back.cpu_energy && back.clocks);
  EXPECT_DOUBLE_EQ(*back.gpu_energy->joules_per_run, 0.1);
  EXPECT_EQ(back.gpu_energy->runs, 30);
  EXPECT_FALSE(back.cpu_energy->joules_per_run);
  EXPECT_EQ(back.cpu_energy->unavailable, "no powercap");
  EXPECT_EQ(back.clocks->throttle_reasons, std::vector<std::string>{"sw_power_cap"});
  EXPECT_EQ(back.clocks->power_readings, 4);
  EXPECT_TRUE(energy_json(detail::Observations{}).is_null());
}

TEST(ObservationsJson, ProcessesMergeIntoAllJoulesOverAllRunsAndJoinedClocks) {
  // 3 J / 30 runs and 6 J / 30 runs: 0.15 J per run; the processes' 0.1 and 0.2 give a t interval
  // 0.15 +/- 12.706 x 0.05 (sd 0.0707 / sqrt 2).
  const detail::Observations a = process(3.0, 30, 1980, 1980, 0);
  const detail::Observations b = process(6.0, 30, 1800, 1800, 0x4);
  const detail::Observations m = merge_observations({&a, &b});
  ASSERT_TRUE(m.gpu_energy && m.gpu_energy->joules_per_run);
  EXPECT_DOUBLE_EQ(*m.gpu_energy->joules_per_run, 0.15);
  EXPECT_NEAR(*m.gpu_energy->lower, 0.15 - 12.7062 * 0.05, 1e-3);
  EXPECT_NEAR(*m.gpu_energy->upper, 0.15 + 12.7062 * 0.05, 1e-3);
  EXPECT_DOUBLE_EQ(*m.gpu_energy->average_watts, 4.5);  // 9 J over 2 s
  EXPECT_FALSE(m.cpu_energy->joules_per_run);
  EXPECT_EQ(m.cpu_energy->unavailable, "no powercap");
  ASSERT_TRUE(m.clocks);
  EXPECT_EQ(m.clocks->readings, 20);
  EXPECT_EQ(*m.clocks->sm_mhz_min, 1800);
  EXPECT_EQ(*m.clocks->sm_mhz_max, 1980);
  EXPECT_TRUE(m.clocks->clock_changed);  // each process steady, at levels 9% apart
  EXPECT_EQ(m.clocks->throttle_mask, 0x4u);
  EXPECT_EQ(m.clocks->power_readings, 4);
}

}  // namespace
}  // namespace gbx

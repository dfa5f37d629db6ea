// Roofs below DRAM. CPU: where no fact gives the cache levels' bandwidth (the clock unknown, as on
// a VM without cpufreq), roofs measured per level stand in. GPU: an L2 roof from facts. Either way a
// cache-resident working set is judged against its level's roof, not the DRAM roof alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/throughput.h"
#include "environment/cpu_facts.h"
#include "environment/peaks.h"

namespace gbx {
namespace {

CpuFacts without_clock() {
  CpuFacts f;
  f.isa = "avx2";
  f.logical_cpus_allowed = 2;
  f.physical_cores_allowed = 2;
  f.unknown["max_hz"] = "no cpufreq in sysfs";
  f.caches = {{1, 32 << 10, 1}, {2, 1 << 20, 1}, {3, 32 << 20, 2}};
  return f;
}

Peak dram_calibration() {
  Peak p;
  p.flops_per_second = {{"fp32", 1e9}, {"fp64", 5e8}};
  p.bytes_per_second = 10e9;
  p.method = "calibrated in the test";
  return p;
}

TEST(CacheRoofs, MeasuredRoofsStandInWhereTheFactsGiveNone) {
  ASSERT_FALSE(cache_roofs_from_facts(without_clock()));
  const std::vector<BandwidthRoof> measured = {{"L1", 32 << 10, 200e9, "measured in the test", true},
                                               {"L2", 1 << 20, 80e9, "measured in the test", true}};
  const Peak p = cpu_peak_from_facts(without_clock(), dram_calibration(), measured);
  ASSERT_EQ(p.roofs.size(), 3u);
  EXPECT_EQ(p.roofs[0].level, "L1");
  EXPECT_EQ(p.roofs[1].level, "L2");
  EXPECT_EQ(p.roofs[2].level, "DRAM");
  // 40 GB/s with a 512 KiB working set (memcpy of 64K floats): half the L2 roof, not 4x DRAM's.
  const Throughput in_l2 = compute_throughput(0.0, 40e9, 1.0, &p, "fp32", 512.0 * 1024);
  EXPECT_EQ(in_l2.roof, "L2");
  EXPECT_DOUBLE_EQ(*in_l2.fraction_of_peak_bandwidth, 0.5);
  EXPECT_TRUE(in_l2.above_peak.empty()) << in_l2.above_peak;
}

TEST(CacheRoofs, AMeasuredRoofBelowTheLevelUnderItIsRaisedToIt) {
  // L2 read below DRAM (a loaded machine): raised to DRAM's 10 GB/s, and L1 (5 GB/s) with it.
  const std::vector<BandwidthRoof> measured = {{"L1", 32 << 10, 5e9, "measured in the test", true},
                                               {"L2", 1 << 20, 3e9, "measured in the test", true}};
  const Peak p = cpu_peak_from_facts(without_clock(), dram_calibration(), measured);
  ASSERT_EQ(p.roofs.size(), 3u);
  EXPECT_DOUBLE_EQ(p.roofs[1].bytes_per_second, 10e9);
  EXPECT_DOUBLE_EQ(p.roofs[0].bytes_per_second, 10e9);
  EXPECT_NE(p.roofs[1].source.find("raised"), std::string::npos) << p.roofs[1].source;
}

TEST(CacheRoofs, FactsWinWhereTheyGiveTheRoofs) {
  CpuFacts f = without_clock();
  f.max_hz = 3e9;
  f.max_hz_source = "test";
  ASSERT_TRUE(cache_roofs_from_facts(f));
  const std::vector<BandwidthRoof> measured = {{"L1", 32 << 10, 1.0, "measured in the test", true}};
  const Peak p = cpu_peak_from_facts(f, dram_calibration(), measured);
  ASSERT_FALSE(p.roofs.empty());
  EXPECT_FALSE(p.roofs[0].calibrated) << "a measured roof replaced one the facts give";
}

TEST(CacheRoofs, TheCalibrationMeasuresEveryKnownLevel) {
  const std::vector<CacheLevel> caches = {{1, 32 << 10, 1}, {2, 1 << 20, 1}, {4, 64 << 20, 2}};
  const std::vector<BandwidthRoof> roofs = calibrate_cache_roofs(caches, 1);
  ASSERT_EQ(roofs.size(), 2u) << "levels 1 to 3 only";
  EXPECT_EQ(roofs[0].level, "L1");
  EXPECT_EQ(roofs[1].level, "L2");
  EXPECT_EQ(roofs[1].capacity_bytes, std::int64_t{1} << 20);
  for (const BandwidthRoof& roof : roofs) {
    EXPECT_GT(roof.bytes_per_second, 0.0);
    EXPECT_TRUE(roof.calibrated);
    EXPECT_NE(roof.source.find("memcpy"), std::string::npos) << roof.source;
  }
}

}  // namespace
}  // namespace gbx

namespace gbx {
namespace {

GpuFacts h200() {
  GpuFacts f;
  f.name = "NVIDIA H200";
  f.major = 9;
  f.minor = 0;
  f.sms = 132;
  f.max_clock_hz = 1.98e9;
  f.memory_clock_hz = 2.619e9;
  f.bus_bits = 6144;
  f.l2_bytes = 60 << 20;
  return f;
}

TEST(GpuRoofs, AnL2ResidentWorkingSetIsJudgedAgainstTheL2Roof) {
  const Peak p = gpu_peak(h200());
  ASSERT_EQ(p.roofs.size(), 2u);
  EXPECT_EQ(p.roofs[0].level, "L2");
  EXPECT_EQ(p.roofs[0].capacity_bytes, std::int64_t{60} << 20);
  EXPECT_DOUBLE_EQ(p.roofs[0].bytes_per_second, 5120.0 * 1.98e9);
  EXPECT_EQ(p.roofs[1].level, "DRAM");
  // 8 TB/s with a 32 MiB working set: under the L2 roof; the same with 1 GiB is above DRAM's.
  const Throughput in_l2 = compute_throughput(0.0, 8e12, 1.0, &p, "fp32", 32.0 * (1 << 20));
  EXPECT_EQ(in_l2.roof, "L2");
  EXPECT_TRUE(in_l2.above_peak.empty()) << in_l2.above_peak;
  const Throughput in_dram = compute_throughput(0.0, 8e12, 1.0, &p, "fp32", 1024.0 * (1 << 20));
  EXPECT_EQ(in_dram.roof, "DRAM");
  EXPECT_FALSE(in_dram.above_peak.empty());
}

TEST(GpuRoofs, AnUnknownArchitectureHasTheDramRoofAlone) {
  GpuFacts f = h200();
  f.major = 8;
  f.minor = 9;
  const Peak p = gpu_peak(f);
  ASSERT_EQ(p.roofs.size(), 1u);
  EXPECT_EQ(p.roofs[0].level, "DRAM");
}

}  // namespace
}  // namespace gbx

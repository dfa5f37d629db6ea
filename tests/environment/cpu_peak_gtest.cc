// The CPU's peak from facts, the roof a working set runs under, and above_peak.
#include <gtest/gtest.h>

#include <sched.h>

#include <string>

#include "analysis/throughput.h"
#include "environment/cpu_facts.h"
#include "environment/peaks.h"
#include "tests/support/fake_tree.h"

namespace gbx {
namespace {

CpuFacts zen4(int cores, double hz) {
  CpuFacts f;
  f.vendor = "AuthenticAMD";
  f.family = 0x19;
  f.model = 0x11;
  f.isa = "avx512";
  f.fma = fma_units_for(f.vendor, f.family, f.model);
  f.logical_cpus_allowed = cores;
  f.physical_cores_allowed = cores;
  f.max_hz = hz;
  f.max_hz_source = "test";
  f.caches = {{1, 32 << 10, 1}, {2, 1 << 20, 1}, {3, 32 << 20, cores}};
  return f;
}

Peak calibration() {
  Peak p;
  p.flops_per_second = {{"fp32", 1e9}, {"fp64", 2e9}};  // the inversion seen on a loaded machine
  p.bytes_per_second = 10e9;
  p.method = "calibrated in the test";
  return p;
}

TEST(CpuFacts, FmaTableKnowsZen4AndSkylakeAndSaysWhenItDoesNot) {
  const auto zen = fma_units_for("AuthenticAMD", 0x19, 0x11);
  ASSERT_TRUE(zen);
  EXPECT_EQ(zen->units, 2);
  EXPECT_EQ(zen->width_bits, 256);
  const auto skx = fma_units_for("GenuineIntel", 6, 0x55);
  ASSERT_TRUE(skx);
  EXPECT_EQ(skx->width_bits, 512);
  EXPECT_NE(skx->note.find("upper bound"), std::string::npos);
  EXPECT_FALSE(fma_units_for("GenuineIntel", 6, 0x1A));  // Nehalem: no FMA
  EXPECT_FALSE(fma_units_for("HygonGenuine", 0x18, 0));
}

TEST(CpuPeak, FlopsFromFactsBoundFp64ByFp32) {
  // 8 cores x 3 GHz x 2 pipes x 4 fp64 lanes (256-bit) x 2 = 384 GFLOP/s fp64; fp32 twice that.
  const Peak p = cpu_peak_from_facts(zen4(8, 3e9), calibration());
  EXPECT_EQ(p.flops_basis, "facts");
  EXPECT_DOUBLE_EQ(p.flops_per_second.at("fp64"), 384e9);
  EXPECT_DOUBLE_EQ(p.flops_per_second.at("fp32"), 768e9);
  EXPECT_DOUBLE_EQ(p.calibrated_flops_per_second.at("fp64"), 2e9);  // kept beside, marked
  const nlohmann::json j = peak_json(p);
  EXPECT_EQ(j.at("calibrated").at("flops_per_second").at("fp32"), 1e9);
  EXPECT_EQ(j.at("facts").at("fma").at("units"), 2);
}

TEST(CpuPeak, RoofsPerLevelFromWidthAndClockWithCalibratedDram) {
  const Peak p = cpu_peak_from_facts(zen4(8, 3e9), calibration());
  ASSERT_EQ(p.roofs.size(), 4u);
  // L1: (2 loads + 1 store) x 32 bytes x 8 cores x 3 GHz; L2 64 and L3 32 bytes per cycle per core.
  EXPECT_EQ(p.roofs[0].level, "L1");
  EXPECT_DOUBLE_EQ(p.roofs[0].bytes_per_second, 96.0 * 8 * 3e9);
  EXPECT_DOUBLE_EQ(p.roofs[1].bytes_per_second, 64.0 * 8 * 3e9);
  EXPECT_DOUBLE_EQ(p.roofs[2].bytes_per_second, 32.0 * 8 * 3e9);
  EXPECT_EQ(p.roofs[3].level, "DRAM");
  EXPECT_TRUE(p.roofs[3].calibrated);
  EXPECT_FALSE(p.roofs[0].calibrated);
  EXPECT_EQ(roof_for(p, 16e3)->level, "L1");
  EXPECT_EQ(roof_for(p, 1 << 20)->level, "L2");
  EXPECT_EQ(roof_for(p, 2e6)->level, "L3");
  EXPECT_EQ(roof_for(p, 1e9)->level, "DRAM");
  EXPECT_EQ(roof_for(p, std::nullopt)->level, "DRAM");
}

TEST(CpuPeak, UnknownClockFallsBackToTheCalibrationAndSaysWhy) {
  CpuFacts f = zen4(8, 3e9);
  f.max_hz.reset();
  f.unknown["max_hz"] = "no cpufreq in sysfs";
  const Peak p = cpu_peak_from_facts(f, calibration());
  EXPECT_EQ(p.flops_basis, "calibrated");
  EXPECT_DOUBLE_EQ(p.flops_per_second.at("fp64"), 2e9);
  EXPECT_NE(p.method.find("no cpufreq in sysfs"), std::string::npos) << p.method;
  ASSERT_EQ(p.roofs.size(), 1u);  // no clock: only the calibrated DRAM roof
  EXPECT_TRUE(p.roofs[0].calibrated);
}

TEST(CpuPeak, ACacheResidentCopyIsMeasuredAgainstItsLevelAndAboveOneIsFlagged) {
  const Peak p = cpu_peak_from_facts(zen4(8, 3e9), calibration());
  // 48 GB/s moved with a 256 KiB working set: L2 roof 1536 GB/s, not the calibrated 10 GB/s DRAM.
  const Throughput in_l2 = compute_throughput(0.0, 48e9, 1.0, &p, "fp32", 256.0 * 1024);
  EXPECT_EQ(in_l2.roof, "L2");
  EXPECT_DOUBLE_EQ(*in_l2.fraction_of_peak_bandwidth, 48e9 / (64.0 * 8 * 3e9));
  EXPECT_TRUE(in_l2.above_peak.empty());
  // The same rate with the working set unknown runs under DRAM: 480%, flagged, naming the calibration.
  const Throughput unknown = compute_throughput(0.0, 48e9, 1.0, &p, "fp32");
  EXPECT_EQ(unknown.roof, "DRAM");
  EXPECT_DOUBLE_EQ(*unknown.fraction_of_peak, 4.8);
  EXPECT_NE(unknown.above_peak.find("480% of the DRAM bandwidth roof (calibrated"), std::string::npos)
      << unknown.above_peak;
  EXPECT_EQ(throughput_json(unknown).at("above_peak"), unknown.above_peak);
  EXPECT_TRUE(throughput_json(in_l2).at("above_peak").is_null());
}

TEST(CpuFacts, ReadsClockTopologyAndCachesFromSysfs) {
  gbx_test::FakeTree sysfs;
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(::sched_getaffinity(0, sizeof set, &set), 0);
  int allowed = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    const std::string dir = "cpu" + std::to_string(cpu) + "/";
    sysfs.write(dir + "cpufreq/cpuinfo_max_freq", cpu == 0 ? "3500000" : "3000000");
    sysfs.write(dir + "topology/physical_package_id", "0");
    sysfs.write(dir + "topology/core_id", std::to_string(allowed / 2));  // SMT pairs
    for (const auto& [index, level, type, size] : {std::tuple{0, "1", "Data", "48K"},
                                                   {1, "1", "Instruction", "32K"},
                                                   {2, "2", "Unified", "2048K"},
                                                   {3, "3", "Unified", "105M"}}) {
      const std::string cache = dir + "cache/index" + std::to_string(index) + "/";
      sysfs.write(cache + "level", level);
      sysfs.write(cache + "type", type);
      sysfs.write(cache + "size", size);
      sysfs.write(cache + "shared_cpu_list", "0-3,8");
    }
    ++allowed;
  }
  const CpuFacts f = read_cpu_facts(sysfs.root());
  EXPECT_EQ(f.logical_cpus_allowed, allowed);
  ASSERT_TRUE(f.physical_cores_allowed);
  EXPECT_EQ(*f.physical_cores_allowed, (allowed + 1) / 2);
  ASSERT_TRUE(f.max_hz);
  // CPU 0 is allowed when the test runs unpinned; the highest allowed clock wins.
  EXPECT_DOUBLE_EQ(*f.max_hz, CPU_ISSET(0, &set) ? 3.5e9 : 3.0e9);
  EXPECT_NE(f.max_hz_source.find("cpuinfo_max_freq"), std::string::npos);
  ASSERT_EQ(f.caches.size(), 3u);  // the instruction cache is left out
  EXPECT_EQ(f.caches[0].bytes, 48 << 10);
  EXPECT_EQ(f.caches[2].bytes, 105LL << 20);
  EXPECT_EQ(f.caches[2].cpus_sharing, 5);
}

TEST(CpuFacts, AnEmptySysfsLeavesFactsUnknownWithReasons) {
  gbx_test::FakeTree sysfs;
  const CpuFacts f = read_cpu_facts(sysfs.root());
  EXPECT_FALSE(f.physical_cores_allowed);
  EXPECT_TRUE(f.caches.empty());
  EXPECT_TRUE(f.unknown.count("caches"));
  EXPECT_TRUE(f.unknown.count("physical_cores_allowed"));
  // leaf 0x16 may still give the clock on Intel; otherwise it is unknown, with the reason.
  EXPECT_TRUE(f.max_hz || f.unknown.count("max_hz"));
}

}  // namespace
}  // namespace gbx

// Throughput and the fraction of peak, from given peaks.
#include <gtest/gtest.h>

#include "analysis/throughput.h"
#include "environment/peaks.h"

namespace {

gbx::Peak peak(double bytes_per_second, double fp32_flops_per_second) {
  gbx::Peak p;
  p.bytes_per_second = bytes_per_second;
  p.flops_per_second["fp32"] = fp32_flops_per_second;
  return p;
}

TEST(Throughput, RatesIntensityAndFractionsFromGivenPeaks) {
  const gbx::Peak p = peak(100e9, 1e12);
  // 2e9 FLOP and 4e8 bytes in 10 ms: 200 GFLOP/s (20% of 1 TFLOP/s), 40 GB/s (40% of 100 GB/s).
  const gbx::Throughput t = gbx::compute_throughput(2e9, 4e8, 0.01, &p, "fp32");
  EXPECT_DOUBLE_EQ(*t.flops_per_second, 200e9);
  EXPECT_DOUBLE_EQ(*t.bytes_per_second, 40e9);
  EXPECT_DOUBLE_EQ(*t.arithmetic_intensity, 5.0);
  EXPECT_DOUBLE_EQ(*t.fraction_of_peak_flops, 0.2);
  EXPECT_DOUBLE_EQ(*t.fraction_of_peak_bandwidth, 0.4);
  EXPECT_DOUBLE_EQ(*t.fraction_of_peak, 0.4) << "the binding resource";
}

TEST(Throughput, NoPeakForThePrecisionGivesNoFlopsFraction) {
  const gbx::Peak p = peak(100e9, 1e12);
  const gbx::Throughput t = gbx::compute_throughput(2e9, 0.0, 0.01, &p, "bf16");
  EXPECT_TRUE(t.flops_per_second.has_value());
  EXPECT_FALSE(t.fraction_of_peak_flops.has_value());
  EXPECT_FALSE(t.bytes_per_second.has_value()) << "no declared bytes, no rate";
  EXPECT_FALSE(t.fraction_of_peak.has_value());
  EXPECT_FALSE(t.peak_unavailable.empty());
}

TEST(Throughput, UnknownPeakOrTimeIsSaidNotGuessed) {
  const gbx::Throughput no_peak = gbx::compute_throughput(1e9, 1e9, 1.0, nullptr, "fp32");
  EXPECT_FALSE(no_peak.fraction_of_peak.has_value());
  EXPECT_NE(no_peak.peak_unavailable, "");
  const gbx::Peak p = peak(1.0, 1.0);
  const gbx::Throughput no_time = gbx::compute_throughput(1e9, 1e9, 0.0, &p, "fp32");
  EXPECT_FALSE(no_time.flops_per_second.has_value());
}

TEST(FlopsPerSmPerClock, HopperTable) {
  // H100 SXM: 132 SMs x 1.98 GHz x 256 = 66.9 TFLOP/s fp32, the datasheet's 67.
  EXPECT_DOUBLE_EQ(*gbx::flops_per_sm_per_clock(9, 0, "fp32"), 256.0);
  EXPECT_DOUBLE_EQ(*gbx::flops_per_sm_per_clock(9, 0, "bf16"), 4096.0);
  EXPECT_FALSE(gbx::flops_per_sm_per_clock(7, 5, "bf16").has_value()) << "Turing has no bf16 tensor cores";
  EXPECT_FALSE(gbx::flops_per_sm_per_clock(1, 0, "fp32").has_value());
}

TEST(FlopsPerSmPerClock, Fp64TensorOnlyWhereThereAreDmmaUnits) {
  EXPECT_DOUBLE_EQ(*gbx::flops_per_sm_per_clock(8, 0, "fp64_tensor"), 128.0);
  EXPECT_DOUBLE_EQ(*gbx::flops_per_sm_per_clock(9, 0, "fp64_tensor"), 256.0);
  EXPECT_FALSE(gbx::flops_per_sm_per_clock(8, 6, "fp64_tensor").has_value()) << "GA10x has no fp64 tensor cores";
  EXPECT_FALSE(gbx::flops_per_sm_per_clock(7, 0, "fp64_tensor").has_value());
}

// The peaks against NVIDIA's datasheets, each with its own device facts; within 0.5%, the rounding
// of the published figures.
gbx::GpuFacts facts(const char* name, int major, int minor, int sms, double max_clock_ghz) {
  gbx::GpuFacts f;
  f.name = name;
  f.major = major;
  f.minor = minor;
  f.sms = sms;
  f.max_clock_hz = max_clock_ghz * 1e9;
  f.memory_clock_hz = 2.619e9;
  f.bus_bits = 5120;
  return f;
}

void expect_tflops(const gbx::Peak& peak, const std::string& precision, double datasheet_tflops) {
  ASSERT_EQ(peak.flops_per_second.count(precision), 1u) << precision;
  EXPECT_NEAR(peak.flops_per_second.at(precision) / 1e12, datasheet_tflops, 0.005 * datasheet_tflops) << precision;
}

TEST(GpuPeak, Ga10xFp64IsFourFlopPerSmPerClock) {
  // RTX 3090: 0.556 TFLOP/s fp64 at its 1.695 GHz boost clock, 35.6 fp32.
  const gbx::Peak peak = gbx::gpu_peak(facts("NVIDIA GeForce RTX 3090", 8, 6, 82, 1.695));
  expect_tflops(peak, "fp64", 0.556);
  expect_tflops(peak, "fp32", 35.6);
  EXPECT_EQ(peak.flops_per_second.count("fp64_tensor"), 0u);
}

TEST(GpuPeak, HopperTensorPeaksUseTheSustainedClockAndSaySo) {
  for (const char* name : {"NVIDIA H100 80GB HBM3", "NVIDIA H200"}) {
    SCOPED_TRACE(name);
    const gbx::Peak peak = gbx::gpu_peak(facts(name, 9, 0, 132, 1.98));
    // Datasheet: 989 bf16/fp16, 494 tf32 dense at 1.83 GHz; 67 fp64 (and fp32) and 67 fp64 tensor at 1.98 GHz.
    expect_tflops(peak, "bf16", 989.4);
    expect_tflops(peak, "fp16", 989.4);
    expect_tflops(peak, "tf32", 494.7);
    expect_tflops(peak, "fp64", 33.5);
    expect_tflops(peak, "fp64_tensor", 66.9);
    expect_tflops(peak, "fp32", 66.9);
    EXPECT_DOUBLE_EQ(peak.clocks.at("bf16").hz, 1.83e9);
    EXPECT_NE(peak.clocks.at("bf16").source.find("sustained"), std::string::npos) << peak.clocks.at("bf16").source;
    EXPECT_DOUBLE_EQ(peak.clocks.at("fp32").hz, 1.98e9);
    EXPECT_NE(peak.clocks.at("fp32").source.find("highest SM clock"), std::string::npos);
  }
}

TEST(GpuPeak, OtherHopperSkusHaveTheirOwnSustainedClock) {
  expect_tflops(gbx::gpu_peak(facts("NVIDIA H100 PCIe", 9, 0, 114, 1.755)), "bf16", 756.0);
  expect_tflops(gbx::gpu_peak(facts("NVIDIA H100 NVL", 9, 0, 132, 1.785)), "bf16", 835.0);
  // An sm_90 name not in the table: the highest clock, and the record says so.
  const gbx::Peak unknown = gbx::gpu_peak(facts("Some Future Hopper", 9, 0, 100, 2.0));
  EXPECT_DOUBLE_EQ(unknown.clocks.at("bf16").hz, 2.0e9);
  EXPECT_NE(unknown.clocks.at("bf16").source.find("highest SM clock"), std::string::npos);
}

TEST(GpuPeak, AmpereUsesItsBoostClockForEverything) {
  const gbx::Peak peak = gbx::gpu_peak(facts("NVIDIA A100-SXM4-80GB", 8, 0, 108, 1.41));
  expect_tflops(peak, "bf16", 312.0);
  expect_tflops(peak, "fp64_tensor", 19.5);
  expect_tflops(peak, "fp64", 9.7);
  EXPECT_DOUBLE_EQ(peak.clocks.at("bf16").hz, 1.41e9);
}

TEST(GpuPeak, TheRecordNamesEachPeaksClock) {
  const nlohmann::json j = gbx::peak_json(gbx::gpu_peak(facts("NVIDIA H200", 9, 0, 132, 1.98)));
  EXPECT_DOUBLE_EQ(j.at("clocks").at("bf16").at("hz").get<double>(), 1.83e9);
  EXPECT_DOUBLE_EQ(j.at("clocks").at("fp64").at("hz").get<double>(), 1.98e9);
  EXPECT_FALSE(j.at("clocks").at("tf32").at("source").get<std::string>().empty());
  // 2 x 2.619 GHz x 5120 bits / 8.
  EXPECT_NEAR(j.at("bytes_per_second").get<double>(), 3.352e12, 1e9);
}

TEST(CpuPeak, CalibrationGivesPositiveFiguresAndSaysHow) {
  const gbx::Peak p = gbx::calibrate_cpu_peak();
  ASSERT_TRUE(p.bytes_per_second.has_value());
  EXPECT_GT(*p.bytes_per_second, 0.0);
  EXPECT_GT(p.flops_per_second.at("fp32"), 0.0);
  EXPECT_GT(p.flops_per_second.at("fp64"), 0.0);
  EXPECT_NE(p.method.find("calibrated"), std::string::npos);
}

}  // namespace

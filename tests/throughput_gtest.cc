// Throughput and the fraction of peak, from given peaks.
#include <gtest/gtest.h>

#include "environment/peaks.h"
#include "reporters/throughput.h"

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

TEST(CpuPeak, CalibrationGivesPositiveFiguresAndSaysHow) {
  const gbx::Peak p = gbx::calibrate_cpu_peak();
  ASSERT_TRUE(p.bytes_per_second.has_value());
  EXPECT_GT(*p.bytes_per_second, 0.0);
  EXPECT_GT(p.flops_per_second.at("fp32"), 0.0);
  EXPECT_GT(p.flops_per_second.at("fp64"), 0.0);
  EXPECT_NE(p.method.find("calibrated"), std::string::npos);
}

}  // namespace

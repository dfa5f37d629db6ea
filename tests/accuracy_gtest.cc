// Accuracy against a float64 reference, and memory accounting, through real fixtures: a kernel
// that skips its last row must fail because its poisoned outputs stay NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "extensions/fixture.h"
#include "model/accuracy.h"
#include "model/protocol.h"
#include "tests/support/benchmark_run.h"

namespace {

constexpr std::size_t kRows = 8;
constexpr std::size_t kColumns = 16;

// out = 2 * in, row by row; the broken twin never writes the last row.
template <bool skip_last_row>
class ScaleRows : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override {
    in_ = host_array<float>(kRows * kColumns);
    out_ = host_array<float>(kRows * kColumns);
    reference_ = host_array<double>(kRows * kColumns);
    fill_random(in_);
    for (std::size_t i = 0; i < in_.size; ++i) reference_[i] = 2.0 * static_cast<double>(in_[i]);
    declare_problem("scale_rows");
    declare_accuracy("float64 CPU twin", gbx::tolerance_for("fp32", 1));
  }
  void run() override {
    const std::size_t rows = skip_last_row ? kRows - 1 : kRows;
    for (std::size_t i = 0; i < rows * kColumns; ++i) out_[i] = 2.0f * in_[i];
  }
  void poison_outputs() override { gbx::poison(out_); }
  gbx::Accuracy check_output() override { return gbx::compare_to_reference(out_.data, reference_.data, out_.size); }

 private:
  gbx::Span<float> in_, out_;
  gbx::Span<double> reference_;
};

using Correct = ScaleRows<false>;
using SkipsLastRow = ScaleRows<true>;

}  // namespace

GBX_BENCHMARK(Correct, "accuracy", "correct");
GBX_BENCHMARK(SkipsLastRow, "accuracy", "skips_last_row");

namespace {

void quick_protocol() {
  gbx::detail::Protocol protocol;
  protocol.warmup_runs = 1;
  protocol.min_samples = 3;
  gbx::detail::set_active_protocol(protocol);
}

TEST(CompareToReference, HandComputedErrors) {
  const float out[] = {1.0f, 2.5f, -3.0f};
  const double ref[] = {1.0, 2.0, -3.0};
  const gbx::Accuracy a = gbx::compare_to_reference(out, ref, 3);
  // ||(0, 0.5, 0)|| / ||(1, 2, -3)|| = 0.5 / sqrt(14)
  EXPECT_DOUBLE_EQ(a.rel_l2_error, 0.5 / std::sqrt(14.0));
  EXPECT_DOUBLE_EQ(a.max_abs_error, 0.5);
  EXPECT_EQ(a.nan_count, 0);
}

TEST(CompareToReference, NonFiniteOutputsAreCountedNotAveraged) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float out[] = {nan, 2.0f, inf};
  const double ref[] = {1.0, 2.0, 3.0};
  const gbx::Accuracy a = gbx::compare_to_reference(out, ref, 3);
  EXPECT_EQ(a.nan_count, 2);
  EXPECT_DOUBLE_EQ(a.rel_l2_error, 0.0);
}

TEST(Poison, FillsWithNaN) {
  float values[4] = {1, 2, 3, 4};
  gbx::poison(gbx::Span<float>{values, 4});
  for (float v : values) EXPECT_TRUE(std::isnan(v));
}

TEST(ToleranceFor, ScalesWithPrecisionAndLength) {
  EXPECT_DOUBLE_EQ(gbx::tolerance_for("fp32", 100), 10.0 * std::ldexp(1.0, -24) * 10.0);
  EXPECT_DOUBLE_EQ(gbx::tolerance_for("fp64", 1), 10.0 * std::ldexp(1.0, -53));
  EXPECT_GT(gbx::tolerance_for("bf16", 1024), gbx::tolerance_for("fp16", 1024));
  EXPECT_GT(gbx::tolerance_for("fp16", 1024), gbx::tolerance_for("fp32", 1024));
  EXPECT_THROW(gbx::tolerance_for("int8", 1), std::invalid_argument);
}

TEST(FixtureAccuracy, PoisoningCatchesAKernelThatSkipsItsLastRow) {
  quick_protocol();
  const auto run = gbx_test::run_benchmarks("^accuracy/");
  ASSERT_EQ(run.entries.size(), 2u);
  const auto& correct = run.entries[0];
  const auto& broken = run.entries[1];
  ASSERT_TRUE(correct && correct->accuracy);
  ASSERT_TRUE(broken && broken->accuracy);
  EXPECT_EQ(correct->variant, "correct");
  EXPECT_TRUE(correct->accuracy->passed);
  EXPECT_EQ(correct->accuracy->nan_count, 0);
  EXPECT_EQ(correct->accuracy->reference, "float64 CPU twin");
  EXPECT_FALSE(broken->accuracy->passed);
  EXPECT_EQ(broken->accuracy->nan_count, static_cast<std::int64_t>(kColumns));
  EXPECT_TRUE(run.any_failed) << "a failed accuracy check fails the run";
}

TEST(FixtureMemory, HostAllocationsAreCountedExactly) {
  quick_protocol();
  const auto run = gbx_test::run_benchmarks("^accuracy/correct");
  ASSERT_EQ(run.entries.size(), 1u);
  ASSERT_TRUE(run.entries[0]);
  const gbx::detail::MemoryUsage& memory = run.entries[0]->memory;
  // in and out: 2 x 128 floats; the reference: 128 doubles.
  ASSERT_TRUE(memory.host_peak_bytes.has_value());
  EXPECT_EQ(*memory.host_peak_bytes,
            static_cast<std::int64_t>(2 * kRows * kColumns * sizeof(float) + kRows * kColumns * sizeof(double)));
  EXPECT_FALSE(memory.device_bytes.has_value());
  EXPECT_FALSE(memory.device_bytes_unavailable.empty());
}

}  // namespace

// In-place kernels in the class form: an output that is also an input (y = a x + y), declared with
// declare_inout(), is restored before the checked run instead of poisoned, and the check passes;
// undeclared and poisoned, the kernel reads the NaN, and the failure says why. The short form's
// state.inout() is tested in short_form_gtest.cc; a CUDA device's, in tests/gpu/inout_gtest.cc.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

#include <gbx/gbx.h>

#include "analysis/run_analysis.h"
#include "model/protocol.h"
#include "tests/support/benchmark_run.h"

namespace {

constexpr float kA = 2.0f;

// The reference comes from the original values, in setup(), before any run changes y.
template <bool declared>
class InPlaceSaxpy : public gbx::CpuFixture {
 public:
  static int& runs_on_original() {  // checked runs that found y as it was filled
    static int count = 0;
    return count;
  }

 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    x_ = host_array<float>(n_);
    y_ = host_array<float>(n_);
    fill_random(x_);
    fill_random(y_);
    original_.assign(y_.begin(), y_.end());
    reference_.resize(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      reference_[i] = static_cast<double>(kA) * static_cast<double>(x_[i]) + static_cast<double>(y_[i]);
    }
    declare_accuracy("float64 saxpy", gbx::tolerance_for("fp32", 2));
    if (declared) declare_inout(y_);
  }
  void run() override {
    for (std::size_t i = 0; i < n_; ++i) y_[i] = kA * x_[i] + y_[i];
    benchmark::DoNotOptimize(y_.data);
  }
  void poison_outputs() override {
    if (std::equal(y_.begin(), y_.end(), original_.begin())) ++runs_on_original();
    if (!declared) gbx::poison(y_);
  }
  gbx::Accuracy check_output() override { return gbx::compare_to_reference(y_.data, reference_.data(), n_); }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> x_;
  gbx::Span<float> y_;
  std::vector<float> original_;
  std::vector<double> reference_;
};
GBX_BENCHMARK(InPlaceSaxpy<true>, "inout", "declared")->Arg(1024);
GBX_BENCHMARK(InPlaceSaxpy<false>, "inout", "undeclared")->Arg(1024);

class InOut : public ::testing::Test {
 protected:
  void SetUp() override {
    gbx::detail::Protocol p;
    p.warmup_runs = 2;
    p.min_samples = 5;
    p.max_time_seconds = 5.0;
    gbx::detail::set_active_protocol(p);
  }
};

TEST_F(InOut, DeclaredInPlaceOutputIsRestoredAndPasses) {
  const int before = InPlaceSaxpy<true>::runs_on_original();
  const auto run = gbx_test::run_benchmarks("^inout/declared/");
  ASSERT_EQ(run.entries.size(), 1u);
  const gbx::detail::RunRecord& r = *run.entries[0];
  EXPECT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.accuracy.has_value());
  EXPECT_TRUE(r.accuracy->passed) << r.accuracy->rel_l2_error << ", " << r.accuracy->nan_count << " NaN";
  EXPECT_TRUE(r.accuracy->note.empty()) << r.accuracy->note;
  // Restored before poison_outputs(), after sampling ran the kernel on y many times.
  EXPECT_EQ(InPlaceSaxpy<true>::runs_on_original() - before, 1);
  EXPECT_GT(r.memory.host_peak_bytes.value_or(0), 3 * 1024 * 4 - 1);  // x, y and y's saved copy
}

TEST_F(InOut, UndeclaredInPlaceOutputFailsSayingWhy) {
  const auto run = gbx_test::run_benchmarks("^inout/undeclared/");
  ASSERT_EQ(run.entries.size(), 1u);
  const gbx::detail::RunRecord& r = *run.entries[0];
  ASSERT_TRUE(r.accuracy.has_value());
  EXPECT_FALSE(r.accuracy->passed);
  EXPECT_EQ(r.accuracy->nan_count, 1024);
  EXPECT_NE(r.accuracy->note.find("declare_inout"), std::string::npos) << r.accuracy->note;
  bool flagged = false;
  for (const auto& flag : gbx::analyze_run(r).flags) {
    flagged =
        flagged || (flag.name == "accuracy_failed" && flag.message.find("before writing it") != std::string::npos);
  }
  EXPECT_TRUE(flagged);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  char name[] = "inout_gtest";
  char* fake_argv[] = {name, nullptr};
  int fake_argc = 1;
  benchmark::Initialize(&fake_argc, fake_argv);
  const int result = RUN_ALL_TESTS();
  benchmark::Shutdown();
  return result;
}

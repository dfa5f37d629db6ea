// In-place kernels on a CUDA device: y = a x + y reads its output. Declared in place (the short
// form's state.inout(), the class form's declare_device_inout()), y is restored on the device before
// the checked run and the check passes; undeclared, the kernel reads the NaN y was poisoned with and
// the failure says why. Without a usable device the benchmarks are skipped, and so are these tests.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <gbx/gbx.h>

#include "model/protocol.h"
#include "tests/gpu/inout_kernels.cuh"
#include "tests/support/benchmark_run.h"

namespace {

constexpr float kA = 2.0f;

std::vector<double> saxpy_reference(gbx::Span<float> x, gbx::Span<float> y) {
  std::vector<double> out(x.size);
  for (std::size_t i = 0; i < x.size; ++i) out[i] = static_cast<double>(kA) * x[i] + static_cast<double>(y[i]);
  return out;
}

// The host arrays keep the original values: the device copy of y is the one the kernel changes.
template <bool declared>
void short_form_saxpy(gbx::CudaState& state) {
  const auto n = state.get_int("n");
  auto& x_host = state.fill_random(state.host_array<float>(n));
  auto& y_host = state.fill_random(state.host_array<float>(n));
  auto& x = state.device_copy(x_host);
  auto& y = state.device_copy(y_host);
  if (declared) state.inout(y);
  state.check_device(
      y, [&] { return saxpy_reference(x_host, y_host); }, gbx::tolerance_for("fp32", 2));
  state.exec([&] { gbx_test::launch_saxpy_in_place(kA, x.data, y.data, static_cast<std::size_t>(n), state.stream()); });
}
GBX_BENCH(short_form_saxpy<true>, "gpu_inout/declared")->int_axis("n", {1 << 16});
GBX_BENCH(short_form_saxpy<false>, "gpu_inout/undeclared")->int_axis("n", {1 << 15});

class ClassFormSaxpy : public gbx::CudaFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    const gbx::Span<float> x_host = host_array<float>(n_);
    const gbx::Span<float> y_host = host_array<float>(n_);
    fill_random(x_host);
    fill_random(y_host);
    reference_ = saxpy_reference(x_host, y_host);
    x_ = device_array<float>(n_);
    y_ = device_array<float>(n_);
    result_ = host_array<float>(n_);
    upload(x_host, x_);
    upload(y_host, y_);
    declare_device_inout(y_);
    declare_accuracy("float64 saxpy", gbx::tolerance_for("fp32", 2));
  }
  void run() override { gbx_test::launch_saxpy_in_place(kA, x_.data, y_.data, n_, stream()); }
  void poison_outputs() override {}  // y is in place: the base restores it
  gbx::Accuracy check_output() override {
    download(y_, result_);
    return gbx::compare_to_reference(result_.data, reference_.data(), n_);
  }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> x_;
  gbx::Span<float> y_;
  gbx::Span<float> result_;
  std::vector<double> reference_;
};
GBX_BENCHMARK(ClassFormSaxpy, "gpu_inout", "class")->Arg(1 << 14);

class GpuInOut : public ::testing::Test {
 protected:
  void SetUp() override {
    gbx::detail::Protocol p;
    p.warmup_runs = 2;
    p.min_samples = 5;
    p.max_time_seconds = 5.0;
    gbx::detail::set_active_protocol(p);
  }
  // The one record of the benchmarks that filter selects; skips the test where it could not run.
  static gbx::detail::RunRecord run_one(const std::string& filter) {
    const auto run = gbx_test::run_benchmarks(filter);
    if (run.entries.size() != 1 || !run.entries[0]) throw std::logic_error(filter + ": not one record");
    return *run.entries[0];
  }
};

TEST_F(GpuInOut, DeclaredInPlaceOutputsPass) {
  for (const char* filter : {"^gpu_inout/declared/", "^gpu_inout/class/"}) {
    const gbx::detail::RunRecord r = run_one(filter);
    if (r.skipped) GTEST_SKIP() << r.error;
    EXPECT_TRUE(r.error.empty()) << filter << ": " << r.error;
    ASSERT_TRUE(r.accuracy.has_value()) << filter;
    EXPECT_TRUE(r.accuracy->passed) << filter << ": " << r.accuracy->rel_l2_error << ", " << r.accuracy->nan_count;
    EXPECT_TRUE(r.accuracy->note.empty()) << r.accuracy->note;
  }
}

TEST_F(GpuInOut, UndeclaredInPlaceOutputFailsSayingWhy) {
  const gbx::detail::RunRecord r = run_one("^gpu_inout/undeclared/");
  if (r.skipped) GTEST_SKIP() << r.error;
  ASSERT_TRUE(r.accuracy.has_value());
  EXPECT_FALSE(r.accuracy->passed);
  EXPECT_EQ(r.accuracy->nan_count, 1 << 15);
  EXPECT_NE(r.accuracy->note.find("state.inout(y)"), std::string::npos) << r.accuracy->note;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  char name[] = "gpu_inout_gtest";
  char* fake_argv[] = {name, nullptr};
  int fake_argc = 1;
  benchmark::Initialize(&fake_argc, fake_argv);
  gbx::detail::register_short_benchmarks({});
  const int result = RUN_ALL_TESTS();
  benchmark::Shutdown();
  return result;
}

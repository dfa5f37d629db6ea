// The CPU side of the bandwidth family: memcpy and STREAM's triad, checked element by element
// against their twins (exact: they round as the twins do).
#include <string>
#include <vector>

#include "extensions/fixture.h"
#include "kernels/bandwidth.h"

namespace {

class CpuCopy : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    src_ = host_array<float>(n_);
    dst_ = host_array<float>(n_);
    fill_random(src_);
    declare_problem("bandwidth/copy/n=" + std::to_string(n_));
    declare_bytes_per_run(2.0 * static_cast<double>(n_ * sizeof(float)));
    declare_accuracy("the source, copied element by element", 0.0);
  }
  void run() override { gbx::kernels::copy_memcpy(dst_.data, src_.data, n_); }
  void poison_outputs() override { gbx::poison(dst_); }
  gbx::Accuracy check_output() override {
    std::vector<float> expected(n_);
    gbx::kernels::copy_memcpy_reference(expected.data(), src_.data, n_);
    const std::vector<double> reference(expected.begin(), expected.end());
    return gbx::compare_to_reference(dst_.data, reference.data(), n_);
  }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> src_, dst_;
};

class CpuTriad : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    a_ = host_array<float>(n_);
    b_ = host_array<float>(n_);
    c_ = host_array<float>(n_);
    fill_random(b_);
    fill_random(c_);
    declare_problem("bandwidth/triad/n=" + std::to_string(n_));
    declare_flops_per_run(2.0 * static_cast<double>(n_));
    declare_bytes_per_run(3.0 * static_cast<double>(n_ * sizeof(float)));
    declare_accuracy("the triad element by element", 0.0);
  }
  void run() override { gbx::kernels::triad(a_.data, b_.data, c_.data, kScalar, n_); }
  void poison_outputs() override { gbx::poison(a_); }
  gbx::Accuracy check_output() override {
    std::vector<float> expected(n_);
    gbx::kernels::triad_reference(expected.data(), b_.data, c_.data, kScalar, n_);
    const std::vector<double> reference(expected.begin(), expected.end());
    return gbx::compare_to_reference(a_.data, reference.data(), n_);
  }

 private:
  static constexpr float kScalar = 3.0f;
  std::size_t n_ = 0;
  gbx::Span<float> a_, b_, c_;
};

// A cache-resident size and one well past any last-level cache.
void sizes(gbx::RegisteredBenchmark* b) { b->ArgName("n")->Arg(1 << 16)->Arg(1 << 24)->Unit(benchmark::kMicrosecond); }

}  // namespace

GBX_BENCHMARK(CpuCopy, "bandwidth", "memcpy")->Apply(sizes);
GBX_BENCHMARK(CpuTriad, "bandwidth", "triad")->Apply(sizes);

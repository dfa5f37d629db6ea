// The CPU reduction family: four ways to sum n floats, trading speed for rounding error, each
// checked against the float64 sum.
#include <string>

#include <gbx/gbx.h>

#include "bench/load_sweep.h"
#include "kernels/reduce.h"

namespace {

using Reduce = float (*)(const float*, std::size_t);

template <Reduce kernel>
class ReduceFixture : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    input_ = host_array<float>(n_);
    sum_ = host_array<float>(1);
    fill_random(input_);
    declare_problem("reduce/n=" + std::to_string(n_));
    declare_flops_per_run(static_cast<double>(n_));
    declare_bytes_per_run(static_cast<double>(n_ * sizeof(float)));
    reference_ = &gbx::cached_reference("reduce/n=" + std::to_string(n_) + "/seed=" + std::to_string(seed()), [this] {
      return std::vector<double>{gbx::kernels::reduce_reference(input_.data, n_)};
    });
    declare_accuracy("float64 CPU sum", gbx::tolerance_for("fp32", n_));
  }
  void run() override {
    sum_[0] = kernel(input_.data, n_);
    benchmark::ClobberMemory();
  }
  void poison_outputs() override { gbx::poison(sum_); }
  gbx::Accuracy check_output() override { return gbx::compare_to_reference(sum_.data, reference_->data(), 1); }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> input_;
  gbx::Span<float> sum_;
  const std::vector<double>* reference_ = nullptr;
};

void sizes(gbx::RegisteredBenchmark* b) { b->ArgName("n")->Arg(1 << 12)->Arg(1 << 24)->Unit(benchmark::kMicrosecond); }

// The default suite's load sweep, on the smallest argument set (bench/load_sweep.h).
const gbx::LoadPlan load_sweep = gbx::bench::default_suite_sweep({1 << 12});

}  // namespace

GBX_BENCHMARK_UNDER_LOAD(ReduceFixture<gbx::kernels::reduce_naive>, "reduce", "naive", load_sweep)->Apply(sizes);
GBX_BENCHMARK_UNDER_LOAD(ReduceFixture<gbx::kernels::reduce_pairwise>, "reduce", "pairwise", load_sweep)->Apply(sizes);
GBX_BENCHMARK_UNDER_LOAD(ReduceFixture<gbx::kernels::reduce_kahan>, "reduce", "kahan", load_sweep)->Apply(sizes);
GBX_BENCHMARK_UNDER_LOAD(ReduceFixture<gbx::kernels::reduce_double>, "reduce", "double", load_sweep)->Apply(sizes);

// The CPU reduction family: four ways to sum n floats, trading speed for rounding error.
#include <string>

#include "extensions/fixture.h"
#include "kernels/reduce.h"

namespace {

using Reduce = float (*)(const float*, std::size_t);

template <Reduce kernel>
class ReduceFixture : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    input_ = host_array<float>(n_);
    fill_random(input_);
    declare_problem("reduce/n=" + std::to_string(n_));
    declare_flops_per_run(static_cast<double>(n_));
    declare_bytes_per_run(static_cast<double>(n_ * sizeof(float)));
  }
  void run() override {
    float sum = kernel(input_.data, n_);
    benchmark::DoNotOptimize(sum);
  }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> input_;
};

void sizes(benchmark::internal::Benchmark* b) {
  b->ArgName("n")->Arg(1 << 12)->Arg(1 << 24)->Unit(benchmark::kMicrosecond);
}

}  // namespace

GBX_BENCHMARK(ReduceFixture<gbx::kernels::reduce_naive>, "reduce", "naive")->Apply(sizes);
GBX_BENCHMARK(ReduceFixture<gbx::kernels::reduce_pairwise>, "reduce", "pairwise")->Apply(sizes);
GBX_BENCHMARK(ReduceFixture<gbx::kernels::reduce_kahan>, "reduce", "kahan")->Apply(sizes);
GBX_BENCHMARK(ReduceFixture<gbx::kernels::reduce_double>, "reduce", "double")->Apply(sizes);

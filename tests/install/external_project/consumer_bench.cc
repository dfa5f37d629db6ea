// One CPU fixture over an installed kernel, registered the way gbx's own families are: proves the
// installed headers, libraries and main() are enough for a bench binary.
#include <cstddef>
#include <string>

#include "extensions/fixture.h"
#include "kernels/reduce.h"

namespace {

class SumFixture : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    input_ = host_array<float>(n_);
    fill_random(input_);
    declare_problem("consumer_sum/n=" + std::to_string(n_));
    declare_bytes_per_run(static_cast<double>(n_ * sizeof(float)));
  }
  void run() override {
    float sum = gbx::kernels::reduce_pairwise(input_.data, n_);
    benchmark::DoNotOptimize(sum);
  }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> input_;
};

}  // namespace

GBX_BENCHMARK(SumFixture, "consumer_sum", "pairwise")->Arg(1 << 10);

// One CPU fixture, registered the way gbx's own families are: proves that the umbrella header,
// the installed libraries and main() are enough for a bench binary.
#include <cstddef>
#include <string>

#include <gbx/gbx.h>

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
    float sum = 0.0f;
    for (std::size_t i = 0; i < n_; ++i) sum += input_.data[i];
    benchmark::DoNotOptimize(sum);
  }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> input_;
};

}  // namespace

GBX_BENCHMARK(SumFixture, "consumer_sum", "pairwise")->Arg(1 << 10);

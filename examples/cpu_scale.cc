// Adding a CPU kernel in one file: setup with counted, seeded inputs, the run, and the declarations.
#include <string>

#include "extensions/fixture.h"

class Scale : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    x_ = host_array<float>(n_);  // counted, freed after the benchmark
    fill_random(x_);             // seeded; the seed is recorded
    declare_problem("scale/n=" + std::to_string(n_));
    declare_flops_per_run(static_cast<double>(n_));
    declare_bytes_per_run(2.0 * static_cast<double>(n_ * sizeof(float)));
  }
  void run() override {
    for (auto& v : x_) v *= 1.0001f;
    benchmark::DoNotOptimize(x_.data);
  }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> x_;
};

GBX_BENCHMARK(Scale, "scale", "loop")->ArgName("n")->Arg(1 << 20);

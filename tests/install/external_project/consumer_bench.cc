// gbx's two forms of a CPU benchmark, a class-form fixture and a short-form function with an axis:
// proves that the umbrella header, the installed libraries and gbx::main are enough for a bench binary.
#include <cstddef>
#include <cstdint>
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

// The short form through the same installed header: a function, its axis, state.exec().
static void consumer_scale(gbx::State& state) {
  const auto n = state.get_int("n");
  auto &x = state.fill_random(state.host_array<float>(n)), &y = state.host_array<float>(n);
  state.declare_bytes_per_run(8.0 * static_cast<double>(n));
  state.exec([&] {
    for (std::int64_t i = 0; i < n; ++i) y[i] = 2.0f * x[i];
  });
}
GBX_BENCH(consumer_scale, "consumer_scale/loop")->int_axis("n", {256});

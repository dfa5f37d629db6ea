// The CUDA reduction family: one atomic per thread, a warp-shuffle tree per block, and CUB's
// DeviceReduce, each checked against the float64 sum.
#include <string>
#include <vector>

#include <gbx/gbx.h>

#include "bench/load_sweep.h"
#include "kernels/reduce.h"
#include "kernels/reduce_cuda.h"

namespace {

class CudaReduceBase : public gbx::CudaFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    auto x = host_array<float>(n_);
    fill_random(x);
    x_ = device_array<float>(n_);
    sum_ = device_array<float>(1);
    upload(x, x_);
    result_ = host_array<float>(1);
    declare_problem("reduce/n=" + std::to_string(n_));
    declare_flops_per_run(static_cast<double>(n_));
    declare_bytes_per_run(static_cast<double>(n_ * sizeof(float)));
    // The same key as the CPU family's: one reference per problem and seed, whoever asks first.
    reference_ = &gbx::cached_reference("reduce/n=" + std::to_string(n_) + "/seed=" + std::to_string(seed()), [&] {
      return std::vector<double>{gbx::kernels::reduce_reference(x.data, n_)};
    });
    declare_accuracy("float64 CPU sum", gbx::tolerance_for("fp32", n_));
    prepare();
  }
  virtual void prepare() {}
  void poison_outputs() override { poison_device(sum_); }
  gbx::Accuracy check_output() override {
    download(sum_, result_);
    return gbx::compare_to_reference(result_.data, reference_->data(), 1);
  }

  std::size_t n_ = 0;
  gbx::Span<float> x_, sum_, result_;
  const std::vector<double>* reference_ = nullptr;
};

using Launch = void (*)(const float*, std::size_t, float*, cudaStream_t);

template <Launch launcher>
class CudaReduce : public CudaReduceBase {
 protected:
  void run() override { launcher(x_.data, n_, sum_.data, stream()); }
};

// CUB's temporary storage comes from the fixture's helpers, so the record counts it.
class CubReduce : public CudaReduceBase {
 protected:
  void prepare() override { temp_ = device_array<char>(gbx::kernels::reduce_cub_temp_bytes(n_)); }
  void run() override { gbx::kernels::launch_reduce_cub(x_.data, n_, sum_.data, temp_.data, temp_.size, stream()); }
  gbx::Span<char> temp_;
};

void sizes(gbx::RegisteredBenchmark* b) { b->ArgName("n")->Arg(1 << 12)->Arg(1 << 24)->Unit(benchmark::kMicrosecond); }

// The default suite's load sweep, on the smallest argument set (bench/load_sweep.h).
const gbx::LoadPlan load_sweep = gbx::bench::default_suite_sweep({1 << 12});

}  // namespace

GBX_BENCHMARK_UNDER_LOAD(CudaReduce<gbx::kernels::launch_reduce_atomic>, "reduce", "cuda_atomic", load_sweep)
    ->Apply(sizes);
GBX_BENCHMARK_UNDER_LOAD(CudaReduce<gbx::kernels::launch_reduce_warp_shuffle>, "reduce", "cuda_warp_shuffle",
                         load_sweep)
    ->Apply(sizes);
GBX_BENCHMARK_UNDER_LOAD(CubReduce, "reduce", "cub", load_sweep)->Apply(sizes);

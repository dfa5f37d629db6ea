// The CPU GEMM family: a naive triple loop, a cache-blocked one, and OpenBLAS in fp32 and fp64,
// each checked against a float64 product. Shapes are capped to what runs in seconds on a CPU.
#include <vector>

#include <gbx/gbx.h>

#include "bench/gemm_problem.h"
#include "bench/load_sweep.h"
#include "kernels/gemm.h"

namespace {

using Fp32Gemm = void (*)(const float*, const float*, float*, int, int, int);

template <Fp32Gemm kernel>
class CpuGemm : public gbx::bench::GemmFixture<gbx::CpuFixture> {
 protected:
  void setup(const benchmark::State& state) override {
    const Inputs inputs = random_inputs(state);
    a_ = inputs.a;
    b_ = inputs.b;
    c_ = host_array<float>(shape_.c_count());
    declare_gemm(inputs, "fp32", shape_.bytes(sizeof(float)));
  }
  void run() override { kernel(a_.data, b_.data, c_.data, shape_.m, shape_.n, shape_.k); }
  void poison_outputs() override { gbx::poison(c_); }
  gbx::Accuracy check_output() override { return gbx::compare_to_reference(c_.data, reference_->data(), c_.size); }

 private:
  gbx::Span<float> a_, b_, c_;
};

// The same fp32 inputs, widened to fp64 once in setup: what double precision costs.
class CpuDgemm : public gbx::bench::GemmFixture<gbx::CpuFixture> {
 protected:
  void setup(const benchmark::State& state) override {
    const Inputs inputs = random_inputs(state);
    a_ = host_array<double>(inputs.a.size);
    b_ = host_array<double>(inputs.b.size);
    c_ = host_array<double>(shape_.c_count());
    std::copy(inputs.a.begin(), inputs.a.end(), a_.begin());
    std::copy(inputs.b.begin(), inputs.b.end(), b_.begin());
    declare_gemm(inputs, "fp64", shape_.bytes(sizeof(double)));
  }
  void run() override { gbx::kernels::gemm_openblas_dgemm(a_.data, b_.data, c_.data, shape_.m, shape_.n, shape_.k); }
  void poison_outputs() override { gbx::poison(c_); }
  gbx::Accuracy check_output() override { return gbx::compare_to_reference(c_.data, reference_->data(), c_.size); }

 private:
  gbx::Span<double> a_, b_, c_;
};

// Squares, and a skinny shape (tall A, few output columns) that stresses a different blocking.
void small_shapes(gbx::RegisteredBenchmark* b) {
  b->ArgNames({"m", "n", "k"})->Args({256, 256, 256})->Args({1024, 64, 256})->Unit(benchmark::kMillisecond);
}

void cpu_shapes(gbx::RegisteredBenchmark* b) {
  small_shapes(b);
  b->Args({1024, 1024, 1024});
}

// The default suite's load sweep, on the smallest argument set (bench/load_sweep.h).
// Milliseconds a run: 0.15 s a level gives tens of requests.
const gbx::LoadPlan load_sweep = gbx::bench::default_suite_sweep({256, 256, 256}, 0.15);

}  // namespace

// The naive loop takes seconds per run at 1024^3: small shapes only, and no load sweep (70 ms a run).
GBX_BENCHMARK(CpuGemm<gbx::kernels::gemm_naive>, "gemm", "cpu_naive")->Apply(small_shapes);
GBX_BENCHMARK_UNDER_LOAD(CpuGemm<gbx::kernels::gemm_blocked>, "gemm", "cpu_blocked", load_sweep)->Apply(cpu_shapes);
GBX_BENCHMARK_UNDER_LOAD(CpuGemm<gbx::kernels::gemm_openblas_sgemm>, "gemm", "openblas_sgemm", load_sweep)
    ->Apply(cpu_shapes);
GBX_BENCHMARK_UNDER_LOAD(CpuDgemm, "gemm", "openblas_dgemm", load_sweep)->Apply(cpu_shapes);

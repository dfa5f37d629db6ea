// The CPU GEMM family: a naive triple loop, a cache-blocked one, and OpenBLAS in fp32 and fp64,
// each checked against a float64 product. Shapes are capped to what runs in seconds on a CPU.
#include <vector>

#include "bench/gemm_problem.h"
#include "extensions/fixture.h"
#include "kernels/gemm.h"

namespace {

using gbx::bench::GemmShape;
using Fp32Gemm = void (*)(const float*, const float*, float*, int, int, int);

template <Fp32Gemm kernel>
class CpuGemm : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    shape_ = GemmShape::from(state);
    a_ = host_array<float>(shape_.a_count());
    b_ = host_array<float>(shape_.b_count());
    c_ = host_array<float>(shape_.c_count());
    fill_random(a_);
    fill_random(b_);
    declare_problem(shape_.problem());
    declare_flops_per_run(shape_.flops());
    declare_bytes_per_run(shape_.bytes(sizeof(float)));
    reference_ = &gbx::bench::gemm_reference_for(shape_, seed(), a_, b_);
    declare_accuracy(gbx::bench::kGemmReference, gbx::tolerance_for("fp32", std::size_t(shape_.k)));
  }
  void run() override { kernel(a_.data, b_.data, c_.data, shape_.m, shape_.n, shape_.k); }
  void poison_outputs() override { gbx::poison(c_); }
  gbx::Accuracy check_output() override { return gbx::compare_to_reference(c_.data, reference_->data(), c_.size); }

 private:
  GemmShape shape_;
  gbx::Span<float> a_, b_, c_;
  const std::vector<double>* reference_ = nullptr;
};

// The same fp32 inputs, widened to fp64 once in setup: what double precision costs.
class CpuDgemm : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    shape_ = GemmShape::from(state);
    auto a = host_array<float>(shape_.a_count());
    auto b = host_array<float>(shape_.b_count());
    fill_random(a);
    fill_random(b);
    a_ = host_array<double>(a.size);
    b_ = host_array<double>(b.size);
    c_ = host_array<double>(shape_.c_count());
    std::copy(a.begin(), a.end(), a_.begin());
    std::copy(b.begin(), b.end(), b_.begin());
    declare_problem(shape_.problem());
    declare_precision("fp64");
    declare_flops_per_run(shape_.flops());
    declare_bytes_per_run(shape_.bytes(sizeof(double)));
    reference_ = &gbx::bench::gemm_reference_for(shape_, seed(), a, b);
    declare_accuracy(gbx::bench::kGemmReference, gbx::tolerance_for("fp64", std::size_t(shape_.k)));
  }
  void run() override { gbx::kernels::gemm_openblas_dgemm(a_.data, b_.data, c_.data, shape_.m, shape_.n, shape_.k); }
  void poison_outputs() override { gbx::poison(c_); }
  gbx::Accuracy check_output() override { return gbx::compare_to_reference(c_.data, reference_->data(), c_.size); }

 private:
  GemmShape shape_;
  gbx::Span<double> a_, b_, c_;
  const std::vector<double>* reference_ = nullptr;
};

// Squares, and a skinny shape (tall A, few output columns) that stresses a different blocking.
void small_shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"m", "n", "k"})->Args({256, 256, 256})->Args({1024, 64, 256})->Unit(benchmark::kMillisecond);
}

void cpu_shapes(benchmark::internal::Benchmark* b) {
  small_shapes(b);
  b->Args({1024, 1024, 1024});
}

}  // namespace

// The naive loop takes seconds per run at 1024^3: small shapes only.
GBX_BENCHMARK(CpuGemm<gbx::kernels::gemm_naive>, "gemm", "cpu_naive")->Apply(small_shapes);
GBX_BENCHMARK(CpuGemm<gbx::kernels::gemm_blocked>, "gemm", "cpu_blocked")->Apply(cpu_shapes);
GBX_BENCHMARK(CpuGemm<gbx::kernels::gemm_openblas_sgemm>, "gemm", "openblas_sgemm")->Apply(cpu_shapes);
GBX_BENCHMARK(CpuDgemm, "gemm", "openblas_dgemm")->Apply(cpu_shapes);

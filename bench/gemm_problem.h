#pragma once

// What the CPU and CUDA GEMM fixtures share: the shapes, the problem's name, its work, the float64
// reference of its seeded inputs, and the setup steps that produce and declare them.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <gbx/gbx.h>

#include "kernels/gemm.h"

namespace gbx::bench {

struct GemmShape {
  int m = 0, n = 0, k = 0;

  static GemmShape from(const benchmark::State& state) {
    return {static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), static_cast<int>(state.range(2))};
  }
  std::string problem() const {
    return "gemm/m=" + std::to_string(m) + ",n=" + std::to_string(n) + ",k=" + std::to_string(k);
  }
  double flops() const { return 2.0 * m * n * static_cast<double>(k); }
  // Each matrix read or written once: the least traffic any implementation needs.
  double bytes(double element_bytes) const {
    return element_bytes * (static_cast<double>(m) * k + static_cast<double>(k) * n + static_cast<double>(m) * n);
  }
  std::size_t a_count() const { return std::size_t(m) * std::size_t(k); }
  std::size_t b_count() const { return std::size_t(k) * std::size_t(n); }
  std::size_t c_count() const { return std::size_t(m) * std::size_t(n); }
};

// The float64 product of the float inputs, through OpenBLAS's dgemm (exact products, sums rounded
// at 2^-53): computed once per shape and seed, since a 4096^3 reference takes seconds.
inline const std::vector<double>& gemm_reference_for(const GemmShape& s, std::uint64_t seed, Span<float> A,
                                                     Span<float> B) {
  return cached_reference(s.problem() + "/seed=" + std::to_string(seed), [&] {
    std::vector<double> a(A.begin(), A.end());
    std::vector<double> b(B.begin(), B.end());
    std::vector<double> c(s.c_count());
    gbx::kernels::gemm_openblas_dgemm(a.data(), b.data(), c.data(), s.m, s.n, s.k);
    return c;
  });
}

inline constexpr const char* kGemmReference = "float64 OpenBLAS dgemm of the same inputs";

// The setup every GEMM fixture shares, on any backend: the shape from the arguments, seeded fp32
// inputs A and B on the host, and the declarations of the problem, its work, precision and accuracy.
template <class Backend>
class GemmFixture : public Backend {
 protected:
  struct Inputs {
    Span<float> a, b;
  };

  // Reads the shape and fills A and B; a fixture copies, converts or uploads them as it needs.
  Inputs random_inputs(const benchmark::State& state) {
    shape_ = GemmShape::from(state);
    Inputs inputs{this->template host_array<float>(shape_.a_count()),
                  this->template host_array<float>(shape_.b_count())};
    this->fill_random(inputs.a);
    this->fill_random(inputs.b);
    return inputs;
  }

  // bytes_per_run: the traffic at the widths this variant reads and writes (GemmShape::bytes).
  void declare_gemm(const Inputs& inputs, const std::string& precision, double bytes_per_run) {
    this->declare_problem(shape_.problem());
    this->declare_precision(precision);
    this->declare_flops_per_run(shape_.flops());
    this->declare_bytes_per_run(bytes_per_run);
    reference_ = &gemm_reference_for(shape_, this->seed(), inputs.a, inputs.b);
    this->declare_accuracy(kGemmReference, tolerance_for(precision, std::size_t(shape_.k)));
  }

  GemmShape shape_;
  const std::vector<double>* reference_ = nullptr;
};

}  // namespace gbx::bench

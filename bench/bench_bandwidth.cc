// The CPU side of the bandwidth family: memcpy and STREAM's triad, checked element by element
// against their twins (exact: they round as the twins do). Swept over n, a cache-resident size and
// one well past any last-level cache by default; --gbx_axis=n=2^10:2^26:2 sweeps more.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gbx/gbx.h>

#include "kernels/bandwidth.h"

namespace {

constexpr float kScalar = 3.0f;

// The twin's output as a float64 reference.
template <class Twin>
std::vector<double> twin_reference(std::size_t n, Twin twin) {
  std::vector<float> expected(n);
  twin(expected.data());
  return std::vector<double>(expected.begin(), expected.end());
}

void memcpy_bench(gbx::State& state) {
  const std::int64_t count = state.get_int("n");   // the arrays' length as the state takes it
  const auto n = static_cast<std::size_t>(count);  // and as the kernels do
  auto &src = state.host_array<float>(count), &dst = state.host_array<float>(count);
  state.fill_random(src);
  state.declare_problem("bandwidth/copy/n=" + std::to_string(n));
  state.declare_bytes_per_run(2.0 * static_cast<double>(src.bytes()));
  state.check(
      dst,
      [&] { return twin_reference(n, [&](float* out) { gbx::kernels::copy_memcpy_reference(out, src.data, n); }); },
      0.0);
  state.exec([&] { gbx::kernels::copy_memcpy(dst.data, src.data, n); });
}

void triad_bench(gbx::State& state) {
  const std::int64_t count = state.get_int("n");
  const auto n = static_cast<std::size_t>(count);
  auto &a = state.host_array<float>(count), &b = state.host_array<float>(count), &c = state.host_array<float>(count);
  state.fill_random(b);
  state.fill_random(c);
  state.declare_problem("bandwidth/triad/n=" + std::to_string(n));
  state.declare_flops_per_run(2.0 * static_cast<double>(n));
  state.declare_bytes_per_run(3.0 * static_cast<double>(a.bytes()));
  state.check(
      a,
      [&] {
        return twin_reference(n, [&](float* out) { gbx::kernels::triad_reference(out, b.data, c.data, kScalar, n); });
      },
      0.0);
  state.exec([&] { gbx::kernels::triad(a.data, b.data, c.data, kScalar, n); });
}

}  // namespace

GBX_BENCH(memcpy_bench, "bandwidth/memcpy")->pow2_axis("n", 16, 24, 8)->unit(benchmark::kMicrosecond);
GBX_BENCH(triad_bench, "bandwidth/triad")->pow2_axis("n", 16, 24, 8)->unit(benchmark::kMicrosecond);

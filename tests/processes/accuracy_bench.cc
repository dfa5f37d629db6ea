// A test-only bench binary: two variants of one problem, one exact and one whose output is off by
// 1% (ACCURACY_BENCH_ERROR, a relative error, sets another), each checked against the same float64
// reference. gbx ab and gbx compare must fail the wrong one whatever its speed (ab_accuracy_test.sh).
#include <algorithm>
#include <cstdlib>

#include <gbx/gbx.h>

namespace {

void scale(gbx::State& state, float offset) {
  const auto n = state.get_int("n");
  auto &x = state.host_array<float>(n), &y = state.host_array<float>(n);
  state.fill_random(x);
  state.declare_bytes_per_run(8.0 * static_cast<double>(n));
  state.check(y, [&] { return gbx::reference_map(x, [](double v) { return 1.5 * v; }); });
  state.exec([&] { std::transform(x.begin(), x.end(), y.begin(), [offset](float v) { return 1.5f * v * offset; }); });
}

void exact(gbx::State& state) { scale(state, 1.0f); }
void wrong(gbx::State& state) {
  const char* error = std::getenv("ACCURACY_BENCH_ERROR");
  scale(state, 1.0f + (error != nullptr ? std::strtof(error, nullptr) : 0.01f));
}

}  // namespace

GBX_BENCH(exact, "accuracy/exact")->int_axis("n", {4096});
GBX_BENCH(wrong, "accuracy/wrong")->int_axis("n", {4096});

// A CPU kernel in the short form: y = 1.5 x, swept over n (--gbx_axis=n=2^10:2^24:2 changes the sweep
// without a rebuild), with its bytes declared and its output checked against a float64 reference.
#include <algorithm>

#include <gbx/gbx.h>

static void scale(gbx::State& state) {
  const auto n = state.get_int("n");
  auto &x = state.host_array<float>(n), &y = state.host_array<float>(n);
  state.fill_random(x);
  state.declare_bytes_per_run(8.0 * static_cast<double>(n));
  state.check(y, [&] { return gbx::reference_map(x, [](double v) { return 1.5 * v; }); });
  state.exec([&] { std::transform(x.begin(), x.end(), y.begin(), [](float v) { return 1.5f * v; }); });
}
GBX_BENCH(scale, "scale/loop")->pow2_axis("n", 16, 20, 4);

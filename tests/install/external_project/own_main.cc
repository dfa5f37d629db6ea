// A program that keeps its own main(): it links gbx::gbx (not gbx::main), does its own setup, then hands
// over to gbx::run_main. The benchmark depends on that setup: without it the output is all zeros and
// fails its accuracy check, so the program exits 1.
#include <cstdint>
#include <cstdio>

#include <gbx/gbx.h>

namespace {
float factor = 0.0f;  // set by main() before any benchmark runs
}

static void own_main_scale(gbx::State& state) {
  const auto n = state.get_int("n");
  auto &x = state.fill_random(state.host_array<float>(n)), &y = state.host_array<float>(n);
  state.declare_bytes_per_run(8.0 * static_cast<double>(n));
  state.check(y, [&] { return gbx::reference_map(x, [](double v) { return 2.0 * v; }); });
  state.exec([&] {
    for (std::int64_t i = 0; i < n; ++i) y[i] = factor * x[i];
  });
}
GBX_BENCH(own_main_scale, "own_main_scale/loop")->int_axis("n", {512});

int main(int argc, char** argv) {
  factor = 2.0f;
  std::fprintf(stderr, "own main: set up before gbx\n");
  return gbx::run_main(argc, argv);
}

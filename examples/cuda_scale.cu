// A CUDA kernel in the short form: y = 1.5 x on the benchmark's stream, timed by CUDA events, swept
// over n, with its bytes declared and its output checked against a float64 reference on the CPU.
#include <gbx/gbx.h>

__global__ void scale_kernel(const float* x, float* y, long n) {
  for (long i = blockIdx.x * 256L + threadIdx.x; i < n; i += gridDim.x * 256L) y[i] = 1.5f * x[i];
}
static void scale(gbx::CudaState& state) {
  const auto n = state.get_int("n");
  auto& host = state.fill_random(state.host_array<float>(n));
  auto &x = state.device_copy(host), &y = state.device_array<float>(n);
  state.declare_bytes_per_run(8.0 * static_cast<double>(n));
  state.check_device(y, [&] { return gbx::reference_map(host, [](double v) { return 1.5 * v; }); });
  state.exec([&] { scale_kernel<<<1024, 256, 0, state.stream()>>>(x.data, y.data, n); });
}
GBX_BENCH(scale, "scale/cuda")->pow2_axis("n", 20, 24, 4)->unit(benchmark::kMicrosecond);

// The short form on a device, from a .cu file of the user's own: the kernel, its launch on the
// benchmark's stream, and a float64 reference on the CPU. Without a device it is not run, and says why.
#include <gbx/gbx.h>

__global__ void consumer_triple(const float* x, float* y, long n) {
  for (long i = blockIdx.x * 256L + threadIdx.x; i < n; i += gridDim.x * 256L) y[i] = 3.0f * x[i];
}

static void consumer_cuda(gbx::CudaState& state) {
  const auto n = state.get_int("n");
  auto& host = state.fill_random(state.host_array<float>(n));
  auto &x = state.device_copy(host), &y = state.device_array<float>(n);
  state.declare_bytes_per_run(8.0 * static_cast<double>(n));
  state.check_device(y, [&] { return gbx::reference_map(host, [](double v) { return 3.0 * v; }); });
  state.exec([&] { consumer_triple<<<64, 256, 0, state.stream()>>>(x.data, y.data, n); });
}
GBX_BENCH(consumer_cuda, "consumer_cuda/triple")->int_axis("n", {1 << 16});

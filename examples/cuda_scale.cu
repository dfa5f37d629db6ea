// Adding a CUDA kernel in one file: device inputs through the fixture's helpers, run() on the
// benchmark's stream(), its declarations, and a check of the output against a float64 reference.
#include <string>
#include <vector>

#include <gbx/gbx.h>

namespace {

constexpr float kFactor = 1.5f;

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, std::size_t n, float a) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = a * x[i];
}

class CudaScale : public gbx::CudaFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    auto x = host_array<float>(n_);
    fill_random(x);
    x_ = device_array<float>(n_);
    y_ = device_array<float>(n_);
    upload(x, x_);
    result_ = host_array<float>(n_);
    declare_problem("scale/n=" + std::to_string(n_));
    declare_flops_per_run(static_cast<double>(n_));
    declare_bytes_per_run(2.0 * static_cast<double>(n_ * sizeof(float)));
    reference_ = &gbx::cached_reference("scale/n=" + std::to_string(n_) + "/seed=" + std::to_string(seed()), [&] {
      std::vector<double> y(n_);
      for (std::size_t i = 0; i < n_; ++i) y[i] = static_cast<double>(kFactor) * static_cast<double>(x[i]);
      return y;
    });
    declare_accuracy("float64 product on the CPU", gbx::tolerance_for("fp32", 1));
  }
  // Enqueue only: the base times the stream with CUDA events.
  void run() override {
    scale_kernel<<<256, 256, 0, stream()>>>(x_.data, y_.data, n_, kFactor);
    GBX_CUDA_CHECK(cudaGetLastError());
  }
  void poison_outputs() override { poison_device(y_); }
  gbx::Accuracy check_output() override {
    download(y_, result_);
    return gbx::compare_to_reference(result_.data, reference_->data(), n_);
  }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> x_, y_, result_;
  const std::vector<double>* reference_ = nullptr;
};

}  // namespace

GBX_BENCHMARK(CudaScale, "scale", "cuda")->ArgName("n")->Arg(1 << 24)->Unit(benchmark::kMicrosecond);

// The CUDA side of the bandwidth family: device-to-device copies through cudaMemcpy and two copy
// kernels, timed on the device and, for one of them, end to end.
#include <string>

#include <gbx/gbx.h>

#include "kernels/copy_cuda.h"

namespace {

using Launch = void (*)(float*, const float*, std::size_t, cudaStream_t);

void launch_memcpy(float* dst, const float* src, std::size_t n, cudaStream_t stream) {
  GBX_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

template <Launch launcher, gbx::CudaRegion measured = gbx::CudaRegion::device>
class CopyFixture : public gbx::CudaFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    auto host = host_array<float>(n_);
    fill_random(host);
    src_ = device_array<float>(n_);
    dst_ = device_array<float>(n_);
    upload(host, src_);
    expected_ = host;
    received_ = host_array<float>(n_);
    declare_problem("bandwidth/copy/n=" + std::to_string(n_));
    declare_bytes_per_run(2.0 * static_cast<double>(n_ * sizeof(float)));
    // A copy is exact: any difference is a wrong or missing element.
    declare_accuracy("the source, copied on the CPU", 0.0);
  }
  void poison_outputs() override { poison_device(dst_); }
  gbx::Accuracy check_output() override {
    download(dst_, received_);
    std::vector<double> reference(expected_.begin(), expected_.end());
    return gbx::compare_to_reference(received_.data, reference.data(), n_);
  }
  void run() override { launcher(dst_.data, src_.data, n_, stream()); }
  gbx::CudaRegion measured_region() const override { return measured; }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> src_;
  gbx::Span<float> dst_;
  gbx::Span<float> expected_;
  gbx::Span<float> received_;
};

using CopyVectorisedEndToEnd = CopyFixture<gbx::kernels::launch_copy_vectorised, gbx::CudaRegion::end_to_end>;

void sizes(gbx::RegisteredBenchmark* b) { b->ArgName("n")->Arg(1 << 20)->Arg(1 << 26)->Unit(benchmark::kMicrosecond); }

}  // namespace

GBX_BENCHMARK(CopyFixture<launch_memcpy>, "bandwidth", "cuda_memcpy")->Apply(sizes);
GBX_BENCHMARK(CopyFixture<gbx::kernels::launch_copy_scalar>, "bandwidth", "cuda_copy_scalar")->Apply(sizes);
GBX_BENCHMARK(CopyFixture<gbx::kernels::launch_copy_vectorised>, "bandwidth", "cuda_copy_vectorised")->Apply(sizes);
GBX_BENCHMARK(CopyVectorisedEndToEnd, "bandwidth", "cuda_copy_vectorised_end_to_end")->Apply(sizes);

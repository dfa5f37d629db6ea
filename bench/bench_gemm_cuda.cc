// The CUDA GEMM family: our naive, shared-memory tiled and register-blocked kernels, and cuBLAS in
// fp32, TF32, and fp16/bf16 inputs with fp32 accumulation, each checked against a float64 product.
#include <memory>
#include <vector>

#include <gbx/gbx.h>

#include "bench/gemm_problem.h"
#include "bench/load_sweep.h"
#include "kernels/gemm.h"
#include "kernels/gemm_cublas.h"
#include "kernels/gemm_cuda.h"

namespace {

// Inputs and output on the device, the reference on the host; subclasses run.
class CudaGemmBase : public gbx::bench::GemmFixture<gbx::CudaFixture> {
 protected:
  void setup(const benchmark::State& state) override {
    const Inputs inputs = random_inputs(state);
    a_ = device_array<float>(inputs.a.size);
    b_ = device_array<float>(inputs.b.size);
    c_ = device_array<float>(shape_.c_count());
    upload(inputs.a, a_);
    upload(inputs.b, b_);
    result_ = host_array<float>(shape_.c_count());
    // Inputs at their own width (2 bytes for fp16/bf16), the fp32 output.
    declare_gemm(inputs, precision(),
                 input_bytes() * static_cast<double>(shape_.a_count() + shape_.b_count()) +
                     sizeof(float) * static_cast<double>(shape_.c_count()));
    prepare();
  }
  void poison_outputs() override { poison_device(c_); }
  gbx::Accuracy check_output() override {
    download(c_, result_);
    return gbx::compare_to_reference(result_.data, reference_->data(), result_.size);
  }

  virtual const char* precision() const { return "fp32"; }
  virtual double input_bytes() const { return sizeof(float); }
  virtual void prepare() {}

  gbx::Span<float> a_, b_, c_, result_;
};

using OurGemm = void (*)(const float*, const float*, float*, int, int, int, cudaStream_t);

template <OurGemm kernel>
class OurCudaGemm : public CudaGemmBase {
 protected:
  void run() override { kernel(a_.data, b_.data, c_.data, shape_.m, shape_.n, shape_.k, stream()); }
};

// cuBLAS with its workspace allocated through the fixture, so that the record counts it.
class CublasGemmBase : public CudaGemmBase {
 protected:
  void prepare() override {
    const auto workspace = device_array<char>(gbx::kernels::CublasHandle::kRecommendedWorkspaceBytes);
    handle_ = std::make_unique<gbx::kernels::CublasHandle>(stream(), workspace.data, workspace.size);
  }
  void teardown() override { handle_.reset(); }
  std::unique_ptr<gbx::kernels::CublasHandle> handle_;
};

class CublasSgemm : public CublasGemmBase {
 protected:
  void run() override {
    gbx::kernels::launch_cublas_sgemm(*handle_, a_.data, b_.data, c_.data, shape_.m, shape_.n, shape_.k);
  }
};

class CublasTf32 : public CublasGemmBase {
 protected:
  const char* precision() const override { return "tf32"; }
  void run() override {
    gbx::kernels::launch_cublas_tf32(*handle_, a_.data, b_.data, c_.data, shape_.m, shape_.n, shape_.k);
  }
};

// The inputs are converted once, in setup (untimed); the runs read the 2-byte copies.
template <class Half>
class CublasHalfBase : public CublasGemmBase {
 protected:
  double input_bytes() const override { return 2.0; }
  void prepare() override {
    CublasGemmBase::prepare();
    a_half_ = device_array<Half>(a_.size);
    b_half_ = device_array<Half>(b_.size);
    convert(a_half_.data, a_.data, a_.size);
    convert(b_half_.data, b_.data, b_.size);
    synchronize();
  }
  virtual void convert(Half* to, const float* from, std::size_t count) = 0;
  gbx::Span<Half> a_half_, b_half_;
};

class CublasFp16 : public CublasHalfBase<__half> {
 protected:
  const char* precision() const override { return "fp16"; }
  void convert(__half* to, const float* from, std::size_t count) override {
    gbx::kernels::launch_convert_to_half(to, from, count, stream());
  }
  void run() override {
    gbx::kernels::launch_cublas_gemm_ex_fp16(*handle_, a_half_.data, b_half_.data, c_.data, shape_.m, shape_.n,
                                             shape_.k);
  }
};

class CublasBf16 : public CublasHalfBase<__nv_bfloat16> {
 protected:
  const char* precision() const override { return "bf16"; }
  void convert(__nv_bfloat16* to, const float* from, std::size_t count) override {
    gbx::kernels::launch_convert_to_bf16(to, from, count, stream());
  }
  void run() override {
    gbx::kernels::launch_cublas_gemm_ex_bf16(*handle_, a_half_.data, b_half_.data, c_.data, shape_.m, shape_.n,
                                             shape_.k);
  }
};

void shapes(gbx::RegisteredBenchmark* b) {
  b->ArgNames({"m", "n", "k"})
      ->Args({256, 256, 256})
      ->Args({1024, 1024, 1024})
      ->Args({4096, 4096, 4096})
      ->Args({8192, 64, 4096})
      ->Unit(benchmark::kMicrosecond);
}

// The default suite's load sweep, on the smallest argument set (bench/load_sweep.h).
const gbx::LoadPlan load_sweep = gbx::bench::default_suite_sweep({256, 256, 256});

}  // namespace

GBX_BENCHMARK_UNDER_LOAD(OurCudaGemm<gbx::kernels::launch_gemm_naive>, "gemm", "cuda_naive", load_sweep)->Apply(shapes);
GBX_BENCHMARK_UNDER_LOAD(OurCudaGemm<gbx::kernels::launch_gemm_tiled>, "gemm", "cuda_tiled", load_sweep)->Apply(shapes);
GBX_BENCHMARK_UNDER_LOAD(OurCudaGemm<gbx::kernels::launch_gemm_register_blocked>, "gemm", "cuda_register_blocked",
                         load_sweep)
    ->Apply(shapes);
GBX_BENCHMARK_UNDER_LOAD(CublasSgemm, "gemm", "cublas_sgemm", load_sweep)->Apply(shapes);
GBX_BENCHMARK_UNDER_LOAD(CublasTf32, "gemm", "cublas_tf32", load_sweep)->Apply(shapes);
GBX_BENCHMARK_UNDER_LOAD(CublasFp16, "gemm", "cublas_fp16", load_sweep)->Apply(shapes);
GBX_BENCHMARK_UNDER_LOAD(CublasBf16, "gemm", "cublas_bf16", load_sweep)->Apply(shapes);

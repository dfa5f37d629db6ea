// The CUDA kernels (kernels/gemm.h, gemm_cublas.h, reduce_cuda.h). Every launcher is linked in any
// case; the kernels run against their CPU twins only where a CUDA device is usable, and each test
// skips with the runtime's reason where none is (as on the development machine).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "extensions/cuda_check.h"
#include "extensions/cuda_device.h"
#include "extensions/device_array.h"
#include "kernels/gemm.h"
#include "kernels/gemm_cublas.h"
#include "kernels/reduce.h"
#include "kernels/reduce_cuda.h"
#include "tests/kernels/kernel_test_support.h"

namespace {

using gbx::DeviceArray;
using kernel_tests::relative_l2_error;

// The address goes through a volatile, so that the compiler keeps the reference and the linker
// has to find the definition in libgbx_kernels.a.
template <class Function>
void expect_resolved(Function* function, const char* name) {
  Function* volatile kept = function;
  EXPECT_NE(kept, nullptr) << name;
}

TEST(CudaKernelsLinked, EveryLauncherResolves) {
  expect_resolved(&gbx::kernels::launch_gemm_naive, "launch_gemm_naive");
  expect_resolved(&gbx::kernels::launch_gemm_tiled, "launch_gemm_tiled");
  expect_resolved(&gbx::kernels::launch_gemm_register_blocked, "launch_gemm_register_blocked");
  expect_resolved(&gbx::kernels::launch_cublas_sgemm, "launch_cublas_sgemm");
  expect_resolved(&gbx::kernels::launch_cublas_tf32, "launch_cublas_tf32");
  expect_resolved(&gbx::kernels::launch_cublas_gemm_ex_fp16, "launch_cublas_gemm_ex_fp16");
  expect_resolved(&gbx::kernels::launch_cublas_gemm_ex_bf16, "launch_cublas_gemm_ex_bf16");
  expect_resolved(&gbx::kernels::launch_convert_to_half, "launch_convert_to_half");
  expect_resolved(&gbx::kernels::launch_convert_to_bf16, "launch_convert_to_bf16");
  expect_resolved(&gbx::kernels::launch_reduce_atomic, "launch_reduce_atomic");
  expect_resolved(&gbx::kernels::launch_reduce_warp_shuffle, "launch_reduce_warp_shuffle");
  expect_resolved(&gbx::kernels::launch_reduce_cub, "launch_reduce_cub");
  expect_resolved(&gbx::kernels::reduce_cub_temp_bytes, "reduce_cub_temp_bytes");
}

// A stream for each test on a usable device; a skip, with the runtime's reason, without one.
class CudaKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string reason = gbx::cuda_unavailable_reason();
    if (!reason.empty()) GTEST_SKIP() << reason;
    GBX_CUDA_CHECK(cudaStreamCreate(&stream_));
  }
  void TearDown() override {
    if (stream_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_));
  }
  void synchronise() const { GBX_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  cudaStream_t stream_ = nullptr;
};

// --- GEMM -----------------------------------------------------------------------------------------

struct Shape {
  int m;
  int n;
  int k;
};

// Against the 128×128 tiles (k steps of 8) of the register-blocked kernel and the 32×32 and 16×16
// of the others: whole tiles only (256, 256, 64); odd sizes everywhere (67); rows of A, B and C
// whose lengths are multiples of 4, so that its 16-byte path runs, with partial tiles (130, 260,
// 36); tall and skinny with a long k; wide and flat with k not a multiple of 4 but n one.
const Shape kShapes[] = {{256, 256, 64}, {67, 67, 67}, {130, 260, 36}, {257, 5, 517}, {3, 600, 1100}};

std::string describe(const Shape& shape) {
  return "m=" + std::to_string(shape.m) + " n=" + std::to_string(shape.n) + " k=" + std::to_string(shape.k);
}

std::size_t elements(int rows, int columns) { return std::size_t(rows) * std::size_t(columns); }

// fp32 variants: as for the CPU ones (tests/kernels/gemm_cpu_gtest.cc), rounding errors that add
// up like a random walk give a relative L2 error of about 0.3 sqrt(k)·u, u = 2^-24 (less with the
// GPU's fused multiply-adds, which round once per step instead of twice); 3 sqrt(k)·u leaves a
// factor of 7 or more.
double fp32_tolerance(int k) { return 3.0 * std::sqrt(double(k)) * kernel_tests::kFp32Unit; }

// Reduced-precision inputs: rounding A and B to the input format dominates everything else (the
// accumulation is fp32). The relative L2 error of C is then about the RMS relative error of one
// product, independent of k: simulated on the CPU with these inputs, 0.27·2^-10 for fp16 and for
// TF32 rounded to nearest, 0.71·2^-10 for TF32 truncated (the tensor cores may truncate), 0.27·2^-7
// for bf16. 8 times the input format's unit roundoff (2^-11 for fp16 and TF32, 2^-8 for bf16)
// leaves a factor of 5.6 for truncated TF32 and 15 for the others.
constexpr double kTf32Tolerance = 8 * 0x1p-11;
constexpr double kFp16Tolerance = 8 * 0x1p-11;
constexpr double kBf16Tolerance = 8 * 0x1p-8;

// Inputs and outputs of one product on the device, with the CPU reference. pad shifts A, B and C
// by that many floats from their allocations, which are 256-byte aligned.
struct DeviceProduct {
  DeviceProduct(const Shape& dimensions, std::vector<float> a, std::vector<float> b, std::size_t pad = 0)
      : shape(dimensions),
        A_host(std::move(a)),
        B_host(std::move(b)),
        reference(elements(shape.m, shape.n)),
        A_storage(A_host.size() + pad),
        B_storage(B_host.size() + pad),
        C_storage(reference.size() + pad),
        A(A_storage.data() + pad),
        B(B_storage.data() + pad),
        C(C_storage.data() + pad) {
    gbx::kernels::gemm_reference(A_host.data(), B_host.data(), reference.data(), shape.m, shape.n, shape.k);
    // k = 0 leaves A and B empty, with no device memory to copy to.
    if (shape.k > 0) {
      GBX_CUDA_CHECK(cudaMemcpy(A, A_host.data(), A_host.size() * sizeof(float), cudaMemcpyHostToDevice));
      GBX_CUDA_CHECK(cudaMemcpy(B, B_host.data(), B_host.size() * sizeof(float), cudaMemcpyHostToDevice));
    }
  }
  // All bits set: a NaN in every element that a launcher fails to write.
  void poison_C() const { GBX_CUDA_CHECK(cudaMemset(C, 0xff, reference.size() * sizeof(float))); }
  std::vector<float> C_host() const {
    std::vector<float> values(reference.size());
    GBX_CUDA_CHECK(cudaMemcpy(values.data(), C, values.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return values;
  }

  Shape shape;
  std::vector<float> A_host;
  std::vector<float> B_host;
  std::vector<double> reference;
  DeviceArray<float> A_storage;
  DeviceArray<float> B_storage;
  DeviceArray<float> C_storage;
  float* A;
  float* B;
  float* C;
};

DeviceProduct random_product(const Shape& shape, std::uint32_t seed, std::size_t pad = 0) {
  return DeviceProduct(shape, kernel_tests::random_floats(elements(shape.m, shape.k), seed),
                       kernel_tests::random_floats(elements(shape.k, shape.n), seed + 1), pad);
}

using Fp32Launcher = void (*)(const float*, const float*, float*, int, int, int, cudaStream_t);

struct OwnFp32Variant {
  const char* name;
  Fp32Launcher launch;
};

const OwnFp32Variant kOwnFp32Variants[] = {{"naive", gbx::kernels::launch_gemm_naive},
                                           {"tiled", gbx::kernels::launch_gemm_tiled},
                                           {"register_blocked", gbx::kernels::launch_gemm_register_blocked}};

std::size_t mismatches(const std::vector<float>& values, const std::vector<double>& reference) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < values.size(); ++i) count += static_cast<double>(values[i]) != reference[i];
  return count;
}

TEST_F(CudaKernels, OwnGemmsWithinFp32Tolerance) {
  std::uint32_t seed = 1;
  for (const Shape& shape : kShapes) {
    const DeviceProduct product = random_product(shape, seed += 2);
    for (const OwnFp32Variant& variant : kOwnFp32Variants) {
      SCOPED_TRACE(std::string(variant.name) + " " + describe(shape));
      product.poison_C();
      variant.launch(product.A, product.B, product.C, shape.m, shape.n, shape.k, stream_);
      synchronise();
      EXPECT_LE(relative_l2_error(product.C_host(), product.reference), fp32_tolerance(shape.k));
    }
  }
}

// Whole numbers in [-4, 4]: every product and partial sum is exact in fp32, in any order and with
// or without fused multiply-adds, so the results must equal the reference exactly.
TEST_F(CudaKernels, OwnGemmsExactOnSmallIntegers) {
  std::uint32_t seed = 50;
  for (const Shape& shape : kShapes) {
    seed += 2;
    const DeviceProduct product(shape, kernel_tests::random_small_integers(elements(shape.m, shape.k), seed, 4),
                                kernel_tests::random_small_integers(elements(shape.k, shape.n), seed + 1, 4));
    for (const OwnFp32Variant& variant : kOwnFp32Variants) {
      SCOPED_TRACE(std::string(variant.name) + " " + describe(shape));
      product.poison_C();
      variant.launch(product.A, product.B, product.C, shape.m, shape.n, shape.k, stream_);
      synchronise();
      EXPECT_EQ(mismatches(product.C_host(), product.reference), 0u);
    }
  }
}

// Rows whose lengths are multiples of 4 but pointers 4 bytes off 16-byte alignment: the
// register-blocked kernel must fall back to element-wise loads and stores rather than fault.
TEST_F(CudaKernels, RegisterBlockedWithMisalignedPointers) {
  const Shape shape{130, 260, 36};
  const DeviceProduct product = random_product(shape, 70, 1);
  product.poison_C();
  gbx::kernels::launch_gemm_register_blocked(product.A, product.B, product.C, shape.m, shape.n, shape.k, stream_);
  synchronise();
  EXPECT_LE(relative_l2_error(product.C_host(), product.reference), fp32_tolerance(shape.k));
}

// k = 0: every element of C is an empty sum, so every variant must write zeros.
TEST_F(CudaKernels, EmptyInnerDimensionGivesZeros) {
  const Shape shape{5, 7, 0};
  const DeviceProduct product(shape, {}, {});
  const gbx::kernels::CublasHandle handle(stream_);
  const std::vector<std::pair<std::string, std::function<void()>>> launches = {
      {"naive", [&] { gbx::kernels::launch_gemm_naive(nullptr, nullptr, product.C, 5, 7, 0, stream_); }},
      {"tiled", [&] { gbx::kernels::launch_gemm_tiled(nullptr, nullptr, product.C, 5, 7, 0, stream_); }},
      {"register_blocked",
       [&] { gbx::kernels::launch_gemm_register_blocked(nullptr, nullptr, product.C, 5, 7, 0, stream_); }},
      {"cublas_sgemm", [&] { gbx::kernels::launch_cublas_sgemm(handle, nullptr, nullptr, product.C, 5, 7, 0); }},
      {"cublas_tf32", [&] { gbx::kernels::launch_cublas_tf32(handle, nullptr, nullptr, product.C, 5, 7, 0); }},
      {"cublas_fp16", [&] { gbx::kernels::launch_cublas_gemm_ex_fp16(handle, nullptr, nullptr, product.C, 5, 7, 0); }},
      {"cublas_bf16", [&] { gbx::kernels::launch_cublas_gemm_ex_bf16(handle, nullptr, nullptr, product.C, 5, 7, 0); }},
  };
  for (const auto& [name, launch] : launches) {
    SCOPED_TRACE(name);
    product.poison_C();
    launch();
    synchronise();
    for (float value : product.C_host()) EXPECT_EQ(value, 0.0f);
  }
}

// --- cuBLAS ---------------------------------------------------------------------------------------

TEST_F(CudaKernels, CublasHandleReportsTheWorkspaceItWasGiven) {
  const std::size_t bytes = gbx::kernels::CublasHandle::kRecommendedWorkspaceBytes;
  DeviceArray<std::byte> workspace(bytes);
  gbx::kernels::CublasHandle handle(stream_, workspace.data(), bytes);
  EXPECT_EQ(handle.workspace_bytes(), bytes);
  EXPECT_EQ(handle.stream(), stream_);
  const gbx::kernels::CublasHandle moved(std::move(handle));
  EXPECT_EQ(moved.workspace_bytes(), bytes);
  EXPECT_NE(moved.get(), nullptr);
  EXPECT_EQ(gbx::kernels::CublasHandle(stream_).workspace_bytes(), 0u);
}

TEST_F(CudaKernels, CublasFp32WithinTolerance) {
  DeviceArray<std::byte> workspace(gbx::kernels::CublasHandle::kRecommendedWorkspaceBytes);
  const gbx::kernels::CublasHandle handle(stream_, workspace.data(), workspace.bytes());
  std::uint32_t seed = 100;
  for (const Shape& shape : kShapes) {
    const DeviceProduct product = random_product(shape, seed += 2);
    {
      SCOPED_TRACE("cublas_sgemm " + describe(shape));
      product.poison_C();
      gbx::kernels::launch_cublas_sgemm(handle, product.A, product.B, product.C, shape.m, shape.n, shape.k);
      synchronise();
      EXPECT_LE(relative_l2_error(product.C_host(), product.reference), fp32_tolerance(shape.k));
    }
    {
      SCOPED_TRACE("cublas_tf32 " + describe(shape));
      product.poison_C();
      gbx::kernels::launch_cublas_tf32(handle, product.A, product.B, product.C, shape.m, shape.n, shape.k);
      synchronise();
      EXPECT_LE(relative_l2_error(product.C_host(), product.reference), kTf32Tolerance);
    }
  }
}

// The reference is the product of the fp32 inputs: the error measured includes their rounding to
// half or bfloat16, which is what these variants trade for speed.
TEST_F(CudaKernels, CublasReducedPrecisionWithinTolerance) {
  DeviceArray<std::byte> workspace(gbx::kernels::CublasHandle::kRecommendedWorkspaceBytes);
  const gbx::kernels::CublasHandle handle(stream_, workspace.data(), workspace.bytes());
  std::uint32_t seed = 200;
  for (const Shape& shape : kShapes) {
    const DeviceProduct product = random_product(shape, seed += 2);
    const std::size_t a_count = product.A_host.size();
    const std::size_t b_count = product.B_host.size();
    {
      SCOPED_TRACE("cublas_gemm_ex_fp16 " + describe(shape));
      DeviceArray<__half> A(a_count);
      DeviceArray<__half> B(b_count);
      gbx::kernels::launch_convert_to_half(A.data(), product.A, a_count, stream_);
      gbx::kernels::launch_convert_to_half(B.data(), product.B, b_count, stream_);
      product.poison_C();
      gbx::kernels::launch_cublas_gemm_ex_fp16(handle, A.data(), B.data(), product.C, shape.m, shape.n, shape.k);
      synchronise();
      EXPECT_LE(relative_l2_error(product.C_host(), product.reference), kFp16Tolerance);
    }
    {
      SCOPED_TRACE("cublas_gemm_ex_bf16 " + describe(shape));
      DeviceArray<__nv_bfloat16> A(a_count);
      DeviceArray<__nv_bfloat16> B(b_count);
      gbx::kernels::launch_convert_to_bf16(A.data(), product.A, a_count, stream_);
      gbx::kernels::launch_convert_to_bf16(B.data(), product.B, b_count, stream_);
      product.poison_C();
      gbx::kernels::launch_cublas_gemm_ex_bf16(handle, A.data(), B.data(), product.C, shape.m, shape.n, shape.k);
      synchronise();
      EXPECT_LE(relative_l2_error(product.C_host(), product.reference), kBf16Tolerance);
    }
  }
}

// --- reductions -----------------------------------------------------------------------------------

const std::size_t kLengths[] = {0, 1, 1000, 4097, (std::size_t(1) << 20) + 3};

// Runs one of the device sums on x and returns its result.
class DeviceSum {
 public:
  DeviceSum(const std::vector<float>& x, cudaStream_t stream) : n_(x.size()), x_(x.size()), sum_(1), stream_(stream) {
    if (n_ > 0) x_.copy_from(x);
  }
  float atomic() const {
    return run([&] { gbx::kernels::launch_reduce_atomic(x_.data(), n_, sum_.data(), stream_); });
  }
  float warp_shuffle() const {
    return run([&] { gbx::kernels::launch_reduce_warp_shuffle(x_.data(), n_, sum_.data(), stream_); });
  }
  float cub() const {
    DeviceArray<std::byte> temp(gbx::kernels::reduce_cub_temp_bytes(n_));
    return run(
        [&] { gbx::kernels::launch_reduce_cub(x_.data(), n_, sum_.data(), temp.data(), temp.bytes(), stream_); });
  }

 private:
  template <class Launch>
  float run(Launch launch) const {
    GBX_CUDA_CHECK(cudaMemset(sum_.data(), 0xff, sizeof(float)));  // a NaN unless the launcher writes
    launch();
    GBX_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return sum_.to_host()[0];
  }

  std::size_t n_;
  DeviceArray<float> x_;
  DeviceArray<float> sum_;
  cudaStream_t stream_;
};

// Any order of float additions, each input passing through at most n roundings: Higham and Mary's
// probabilistic bound 5·sqrt(n)·u·sum|x| (see tests/kernels/reduce_cpu_gtest.cc), which the CPU's
// naive sum, the deepest of orders, meets by a factor of 25.
TEST_F(CudaKernels, SumsWithinBound) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto x = kernel_tests::random_floats(n, static_cast<std::uint32_t>(n) + 300);
    const double exact = gbx::kernels::reduce_reference(x.data(), n);
    double sum_abs = 0.0;
    for (float value : x) sum_abs += std::fabs(double(value));
    const double bound = 5.0 * std::sqrt(double(n)) * kernel_tests::kFp32Unit * sum_abs;
    const DeviceSum sum(x, stream_);
    EXPECT_LE(std::fabs(double(sum.atomic()) - exact), bound) << "atomic";
    EXPECT_LE(std::fabs(double(sum.warp_shuffle()) - exact), bound) << "warp_shuffle";
    EXPECT_LE(std::fabs(double(sum.cub()) - exact), bound) << "cub";
  }
}

// Whole numbers in [-8, 8]: partial sums below 2^23, exact in any order, atomics included.
TEST_F(CudaKernels, SumsExactOnSmallIntegers) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto x = kernel_tests::random_small_integers(n, static_cast<std::uint32_t>(n) + 400, 8);
    const double exact = gbx::kernels::reduce_reference(x.data(), n);
    const DeviceSum sum(x, stream_);
    EXPECT_EQ(double(sum.atomic()), exact) << "atomic";
    EXPECT_EQ(double(sum.warp_shuffle()), exact) << "warp_shuffle";
    EXPECT_EQ(double(sum.cub()), exact) << "cub";
  }
}

}  // namespace

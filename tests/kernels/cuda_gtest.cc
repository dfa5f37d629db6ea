// The CUDA kernels (kernels/gemm.h, gemm_cublas.h, reduce_cuda.h). Every launcher is linked in any
// case; the kernels run against their CPU twins only where a CUDA device is usable, and each test
// skips with the runtime's reason where none is (as on a machine without a GPU).
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
#include "kernels/cublas_check.h"
#include "kernels/gemm.h"
#include "kernels/gemm_cublas.h"
#include "kernels/gemm_cuda.h"
#include "kernels/grid.h"
#include "kernels/reduce.h"
#include "kernels/reduce_cuda.h"
#include "tests/kernels/kernel_test_support.h"

namespace {

using gbx::DeviceArray;
using kernel_tests::relative_l2_error;

// --- the check family, the same for the runtime and cuBLAS: no device needed --------------------

template <class Status>
std::string failure_message(Status status) {
  try {
    GBX_CUDA_CHECK(status);
  } catch (const gbx::CudaError& error) {
    EXPECT_EQ(error.status(), static_cast<int>(status));
    return error.what();
  }
  ADD_FAILURE() << "no gbx::CudaError thrown";
  return "";
}

TEST(CudaCheck, RuntimeAndCublasFailuresAreOneExceptionNamingCallPlaceAndStatus) {
  const std::string runtime = failure_message(cudaErrorInvalidValue);
  EXPECT_NE(runtime.find("cuda_gtest.cc:"), std::string::npos) << runtime;
  EXPECT_NE(runtime.find("status failed: cudaErrorInvalidValue: "), std::string::npos) << runtime;
  const std::string cublas = failure_message(CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_NE(cublas.find("status failed: CUBLAS_STATUS_NOT_INITIALIZED: "), std::string::npos) << cublas;
  EXPECT_NO_THROW(GBX_CUDA_CHECK(cudaSuccess));
  EXPECT_NO_THROW(GBX_CUDA_CHECK(CUBLAS_STATUS_SUCCESS));
}

// Without a usable device every launcher must report the runtime's failure as a gbx::CudaError (with
// a device, the tests below run them for real). A launcher that did not check its launch, or one
// that was not linked in at all, fails here.
TEST(CudaKernelsWithoutDevice, EveryLauncherReportsTheRuntimesFailure) {
  if (gbx::cuda_unavailable_reason().empty()) GTEST_SKIP() << "a device is usable: CudaKernels.* run the launchers";
  float* none = nullptr;
  const std::vector<std::pair<std::string, std::function<void()>>> launches = {
      {"gemm_naive", [&] { gbx::kernels::launch_gemm_naive(none, none, none, 8, 8, 8, nullptr); }},
      {"gemm_tiled", [&] { gbx::kernels::launch_gemm_tiled(none, none, none, 8, 8, 8, nullptr); }},
      {"gemm_register_blocked",
       [&] { gbx::kernels::launch_gemm_register_blocked(none, none, none, 8, 8, 8, nullptr); }},
      {"convert_to_half", [&] { gbx::kernels::launch_convert_to_half(nullptr, none, 8, nullptr); }},
      {"convert_to_bf16", [&] { gbx::kernels::launch_convert_to_bf16(nullptr, none, 8, nullptr); }},
      {"reduce_atomic", [&] { gbx::kernels::launch_reduce_atomic(none, 1000, none, nullptr); }},
      {"reduce_warp_shuffle", [&] { gbx::kernels::launch_reduce_warp_shuffle(none, 1000, none, nullptr); }},
      {"reduce_cub_temp_bytes", [&] { gbx::kernels::reduce_cub_temp_bytes(1000); }},
      {"cublas_handle", [&] { gbx::kernels::CublasHandle handle(nullptr); }},
  };
  for (const auto& [name, launch] : launches) EXPECT_THROW(launch(), gbx::CudaError) << name;
}

// A stream for each test on a usable device; a skip, with the runtime's reason, without one. A
// non-blocking stream, as the fixtures use (extensions/cuda_fixture.cc): the legacy default stream
// does not wait for it, so every copy and memset goes on it too.
class CudaKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string reason = gbx::cuda_unavailable_reason();
    if (!reason.empty()) GTEST_SKIP() << reason;
    GBX_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
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
  DeviceProduct(const Shape& dimensions, std::vector<float> a, std::vector<float> b, cudaStream_t on,
                std::size_t pad = 0)
      : shape(dimensions),
        stream(on),
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
      GBX_CUDA_CHECK(cudaMemcpyAsync(A, A_host.data(), A_host.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
      GBX_CUDA_CHECK(cudaMemcpyAsync(B, B_host.data(), B_host.size() * sizeof(float), cudaMemcpyHostToDevice, stream));
      GBX_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
  }
  // All bits set: a NaN in every element that a launcher fails to write.
  void poison_C() const { GBX_CUDA_CHECK(cudaMemsetAsync(C, 0xff, reference.size() * sizeof(float), stream)); }
  std::vector<float> C_host() const {
    std::vector<float> values(reference.size());
    GBX_CUDA_CHECK(cudaMemcpyAsync(values.data(), C, values.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
    GBX_CUDA_CHECK(cudaStreamSynchronize(stream));
    return values;
  }

  Shape shape;
  cudaStream_t stream;
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

DeviceProduct random_product(const Shape& shape, std::uint32_t seed, cudaStream_t stream, std::size_t pad = 0) {
  return DeviceProduct(shape, kernel_tests::random_floats(elements(shape.m, shape.k), seed),
                       kernel_tests::random_floats(elements(shape.k, shape.n), seed + 1), stream, pad);
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
    const DeviceProduct product = random_product(shape, seed += 2, stream_);
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
                                kernel_tests::random_small_integers(elements(shape.k, shape.n), seed + 1, 4), stream_);
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
  const DeviceProduct product = random_product(shape, 70, stream_, 1);
  product.poison_C();
  gbx::kernels::launch_gemm_register_blocked(product.A, product.B, product.C, shape.m, shape.n, shape.k, stream_);
  synchronise();
  EXPECT_LE(relative_l2_error(product.C_host(), product.reference), fp32_tolerance(shape.k));
}

// k = 0: every element of C is an empty sum, so every variant must write zeros.
TEST_F(CudaKernels, EmptyInnerDimensionGivesZeros) {
  const Shape shape{5, 7, 0};
  const DeviceProduct product(shape, {}, {}, stream_);
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
    const DeviceProduct product = random_product(shape, seed += 2, stream_);
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
    const DeviceProduct product = random_product(shape, seed += 2, stream_);
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
    if (n_ > 0) x_.copy_from(x, stream_);
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
    GBX_CUDA_CHECK(cudaMemsetAsync(sum_.data(), 0xff, sizeof(float), stream_));  // a NaN unless the launcher writes
    launch();
    return sum_.to_host(stream_)[0];
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

// --- the check family and the grid on a device ---------------------------------------------------

// A failed call leaves its error as the runtime's last error too; GBX_CUDA_CHECK clears it, so the
// next benchmark's launch check (cudaGetLastError() after <<<...>>>) does not fail on it.
TEST_F(CudaKernels, AFailedCallLeavesNoErrorForTheNextLaunchCheck) {
  void* never = nullptr;
  EXPECT_THROW(GBX_CUDA_CHECK(cudaMalloc(&never, std::size_t(1) << 62)), gbx::CudaError);
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess) << cudaGetErrorName(cudaPeekAtLastError());
  const DeviceSum sum(std::vector<float>(1000, 1.0f), stream_);
  EXPECT_EQ(sum.atomic(), 1000.0f);
}

TEST_F(CudaKernels, GridStrideBlocksCoverTheWorkUpToWavesOfTheSms) {
  int device = 0;
  int sms = 0;
  GBX_CUDA_CHECK(cudaGetDevice(&device));
  GBX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  EXPECT_EQ(gbx::kernels::grid_stride_blocks(1, 256, 4), 1u);
  EXPECT_EQ(gbx::kernels::grid_stride_blocks(257, 256, 4), 2u);
  // Twice, so that the second answer comes from the cache.
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(gbx::kernels::grid_stride_blocks(std::size_t(1) << 30, 256, 4), 4u * unsigned(sms));
}

}  // namespace

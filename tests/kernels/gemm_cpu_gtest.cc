// The CPU GEMMs (kernels/gemm.h) against the float64 reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "tests/kernels/kernel_test_support.h"

namespace {

using gbx::kernels::gemm_reference;
using kernel_tests::relative_l2_error;

struct Shape {
  int m;
  int n;
  int k;
};

// None is a multiple of gemm_blocked's 128-row, 256-column panels: 260 and 270 overrun one panel
// by a few, 517 and 1100 need several. One square, one near-square, one tall and skinny, one wide
// and flat with a long inner dimension.
const Shape kShapes[] = {{67, 67, 67}, {300, 260, 270}, {1030, 5, 517}, {3, 600, 1100}};

std::string describe(const Shape& shape) {
  return "m=" + std::to_string(shape.m) + " n=" + std::to_string(shape.n) + " k=" + std::to_string(shape.k);
}

std::size_t elements(int rows, int columns) { return std::size_t(rows) * std::size_t(columns); }

std::vector<double> reference_product(const std::vector<float>& A, const std::vector<float>& B, const Shape& s) {
  std::vector<double> C(elements(s.m, s.n));
  gemm_reference(A.data(), B.data(), C.data(), s.m, s.n, s.k);
  return C;
}

// The tolerance for fp32 products of these inputs. Each element of C is a sum of k products with
// random signs, each operation rounding with a relative error of at most u = 2^-24; the rounding
// errors add up like a random walk, so the relative L2 error of C grows like sqrt(k)·u. Measured
// here it is 0.3 sqrt(k)·u for naive and blocked (0.42 at k = 1, where only the product rounds)
// and 0.08 to 0.3 for OpenBLAS, whose blocked sums round less; it hardly varies with the seed,
// being an average over thousands of elements. 3 sqrt(k)·u leaves a factor of 7 or more. A
// worst-case bound (k·u times sum |a||b| per element) would be sqrt(k) times larger and catch
// nothing.
double fp32_tolerance(int k) { return 3.0 * std::sqrt(double(k)) * kernel_tests::kFp32Unit; }

// --- the fp32 variants ----------------------------------------------------------------------------

using Fp32Gemm = void (*)(const float*, const float*, float*, int, int, int);

struct Fp32Variant {
  const char* name;
  Fp32Gemm gemm;
};

class CpuGemmFp32 : public ::testing::TestWithParam<Fp32Variant> {};

TEST_P(CpuGemmFp32, RandomInputsWithinFp32Tolerance) {
  std::uint32_t seed = 1;
  for (const Shape& shape : kShapes) {
    SCOPED_TRACE(describe(shape));
    const auto A = kernel_tests::random_floats(elements(shape.m, shape.k), seed++);
    const auto B = kernel_tests::random_floats(elements(shape.k, shape.n), seed++);
    const auto reference = reference_product(A, B, shape);
    std::vector<float> C(reference.size(), std::numeric_limits<float>::quiet_NaN());
    GetParam().gemm(A.data(), B.data(), C.data(), shape.m, shape.n, shape.k);
    EXPECT_LE(relative_l2_error(C, reference), fp32_tolerance(shape.k));
  }
}

// With whole numbers in [-4, 4], every product and partial sum (at most 16·1100 in magnitude) is a
// float, so any summation order gives the exact result: a wrong index or a dropped edge shows up as
// a mismatch however small, which a tolerance could hide.
TEST_P(CpuGemmFp32, SmallIntegersExact) {
  std::uint32_t seed = 100;
  for (const Shape& shape : kShapes) {
    SCOPED_TRACE(describe(shape));
    const auto A = kernel_tests::random_small_integers(elements(shape.m, shape.k), seed++, 4);
    const auto B = kernel_tests::random_small_integers(elements(shape.k, shape.n), seed++, 4);
    const auto reference = reference_product(A, B, shape);
    std::vector<float> C(reference.size(), std::numeric_limits<float>::quiet_NaN());
    GetParam().gemm(A.data(), B.data(), C.data(), shape.m, shape.n, shape.k);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < C.size(); ++i) mismatches += static_cast<double>(C[i]) != reference[i];
    EXPECT_EQ(mismatches, 0u);
  }
}

// k = 0: every element is an empty sum, so C must be overwritten with zeros.
TEST_P(CpuGemmFp32, EmptyInnerDimensionGivesZeros) {
  const std::vector<float> none;
  std::vector<float> C(elements(3, 5), std::numeric_limits<float>::quiet_NaN());
  GetParam().gemm(none.data(), none.data(), C.data(), 3, 5, 0);
  for (float value : C) EXPECT_EQ(value, 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Variants, CpuGemmFp32,
                         ::testing::Values(Fp32Variant{"naive", gbx::kernels::gemm_naive},
                                           Fp32Variant{"blocked", gbx::kernels::gemm_blocked},
                                           Fp32Variant{"openblas_sgemm", gbx::kernels::gemm_openblas_sgemm}),
                         [](const ::testing::TestParamInfo<Fp32Variant>& variant) { return variant.param.name; });

// --- dgemm ----------------------------------------------------------------------------------------

std::vector<double> widened(const std::vector<float>& values) { return {values.begin(), values.end()}; }

// The same inputs in double: the same random-walk argument with u = 2^-53, so the bound is 2^29
// times tighter than fp32's. (Products of these inputs are exact in double and their sums stay
// small enough that, in practice, both dgemm and the reference are exact here.)
TEST(CpuGemmFp64, OpenblasDgemmWithinFp64Tolerance) {
  std::uint32_t seed = 200;
  for (const Shape& shape : kShapes) {
    SCOPED_TRACE(describe(shape));
    const auto A = kernel_tests::random_floats(elements(shape.m, shape.k), seed++);
    const auto B = kernel_tests::random_floats(elements(shape.k, shape.n), seed++);
    const auto reference = reference_product(A, B, shape);
    const auto A64 = widened(A);
    const auto B64 = widened(B);
    std::vector<double> C(reference.size(), std::numeric_limits<double>::quiet_NaN());
    gbx::kernels::gemm_openblas_dgemm(A64.data(), B64.data(), C.data(), shape.m, shape.n, shape.k);
    EXPECT_LE(relative_l2_error(C, reference), 3.0 * std::sqrt(double(shape.k)) * kernel_tests::kFp64Unit);
  }
}

TEST(CpuGemmFp64, EmptyInnerDimensionGivesZeros) {
  const std::vector<double> none;
  std::vector<double> C(elements(3, 5), std::numeric_limits<double>::quiet_NaN());
  gbx::kernels::gemm_openblas_dgemm(none.data(), none.data(), C.data(), 3, 5, 0);
  for (double value : C) EXPECT_EQ(value, 0.0);
}

// --- the reference itself -------------------------------------------------------------------------

// Worked by hand, so that the row-major convention every variant is checked against is itself
// checked: A is 2×3, B is 3×2.
TEST(CpuGemmReference, HandWorkedProduct) {
  const std::vector<float> A = {1, 2, 3,  //
                                4, 5, 6};
  const std::vector<float> B = {7,  8,   //
                                9,  10,  //
                                11, 12};
  std::vector<double> C(4);
  gemm_reference(A.data(), B.data(), C.data(), 2, 2, 3);
  EXPECT_EQ(C, (std::vector<double>{58, 64, 139, 154}));
}

}  // namespace

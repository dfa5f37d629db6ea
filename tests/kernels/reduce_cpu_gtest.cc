// The CPU sums (kernels/reduce.h) against the float64 reference, each within a bound that grows
// with n as its rounding error does.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "kernels/reduce.h"
#include "tests/kernels/kernel_test_support.h"

namespace {

using kernel_tests::kFp32Unit;
using kernel_tests::kFp64Unit;

// Lengths on both sides of reduce_pairwise's 128-element leaves, and a long one.
const std::size_t kLengths[] = {1, 127, 128, 129, 1000, 4097, (std::size_t(1) << 20) + 3};

// How far a variant's sum of x may lie from the exact one (the float64 reference), given
// sum_abs = sum |x_i| and the exact sum itself.
using Bound = double (*)(std::size_t n, double sum_abs, double exact);

// A float sum in which each input passes through at most `depth` roundings. The worst case
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §4.2) is depth·u·sum|x|; with
// rounding errors that are independent and of mean zero, Higham and Mary's probabilistic bound
// (SIAM J. Sci. Comput. 41(5), 2019) is λ·sqrt(depth)·u·sum|x|, failing with probability at most
// 2·exp(-λ²/2) per sum. λ = 5 (at most 1e-5) and, the inputs being seeded, the outcome is fixed:
// measured, positive inputs reach 0.2 sqrt(n)·u·sum|x| for the naive sum, random signs far less.
double probabilistic_bound(double depth, double sum_abs) { return 5.0 * std::sqrt(depth) * kFp32Unit * sum_abs; }

// One float accumulator: the last input is added once, the first n-1 times.
double naive_bound(std::size_t n, double sum_abs, double) { return probabilistic_bound(double(n), sum_abs); }

// Naive leaves of at most 128 inputs, then ceil(log2(n/128)) levels of halving.
double pairwise_bound(std::size_t n, double sum_abs, double) {
  double levels = 0;
  for (std::size_t length = n; length > 128; length = (length + 1) / 2) ++levels;
  return probabilistic_bound(127 + levels, sum_abs);
}

// Compensated summation: (2u + O(n·u²))·sum|x| in the worst case (Higham §4.3), independent of n
// to first order; the second-order term taken as n·u², which it does not exceed for these n.
double kahan_bound(std::size_t n, double sum_abs, double) {
  return (2.0 * kFp32Unit + double(n) * kFp32Unit * kFp32Unit) * sum_abs;
}

// A double accumulator (worst case (n-1)·2^-53·sum|x|), then one rounding to float (u·|exact|).
double double_bound(std::size_t n, double sum_abs, double exact) {
  return kFp32Unit * std::fabs(exact) + double(n) * kFp64Unit * sum_abs;
}

struct Variant {
  const char* name;
  float (*sum)(const float*, std::size_t);
  Bound bound;
};

class CpuReduce : public ::testing::TestWithParam<Variant> {
 protected:
  void expect_within_bound(const std::vector<float>& x) const {
    const double exact = gbx::kernels::reduce_reference(x.data(), x.size());
    double sum_abs = 0.0;
    for (float value : x) sum_abs += std::fabs(double(value));
    const double error = std::fabs(double(GetParam().sum(x.data(), x.size())) - exact);
    EXPECT_LE(error, GetParam().bound(x.size(), sum_abs, exact)) << "exact sum " << exact << ", sum |x| " << sum_abs;
  }
};

TEST_P(CpuReduce, RandomSignsWithinBound) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE("n=" + std::to_string(n));
    expect_within_bound(kernel_tests::random_floats(n, static_cast<std::uint32_t>(n)));
  }
}

// All positive: the partial sums grow steadily, the case where a float accumulator loses most.
TEST_P(CpuReduce, PositiveInputsWithinBound) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE("n=" + std::to_string(n));
    auto x = kernel_tests::random_floats(n, static_cast<std::uint32_t>(n) + 1);
    for (float& value : x) value = std::fabs(value);
    expect_within_bound(x);
  }
}

// Whole numbers in [-8, 8]: every partial sum of up to 2^20 of them is below 2^23, so exact in
// float. Any variant that drops, repeats or misplaces an input is caught to the unit.
TEST_P(CpuReduce, SmallIntegersExact) {
  for (std::size_t n : kLengths) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const auto x = kernel_tests::random_small_integers(n, static_cast<std::uint32_t>(n) + 2, 8);
    EXPECT_EQ(double(GetParam().sum(x.data(), n)), gbx::kernels::reduce_reference(x.data(), n));
  }
}

TEST_P(CpuReduce, EmptyIsZero) {
  const std::vector<float> none;
  EXPECT_EQ(GetParam().sum(none.data(), 0), 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Variants, CpuReduce,
                         ::testing::Values(Variant{"naive", gbx::kernels::reduce_naive, naive_bound},
                                           Variant{"pairwise", gbx::kernels::reduce_pairwise, pairwise_bound},
                                           Variant{"kahan", gbx::kernels::reduce_kahan, kahan_bound},
                                           Variant{"double", gbx::kernels::reduce_double, double_bound}),
                         [](const ::testing::TestParamInfo<Variant>& variant) { return variant.param.name; });

// The bounds differ for a reason: over 2^20 positive inputs the naive sum's error (measured
// 211·u·sum|x|) is far beyond what compensated summation may ever make.
TEST(CpuReduceGrowth, NaiveErrorOutgrowsTheCompensatedBound) {
  const std::size_t n = std::size_t(1) << 20;
  auto x = kernel_tests::random_floats(n, 11);
  for (float& value : x) value = std::fabs(value);
  const double exact = gbx::kernels::reduce_reference(x.data(), n);
  const double naive_error = std::fabs(double(gbx::kernels::reduce_naive(x.data(), n)) - exact);
  EXPECT_GT(naive_error, kahan_bound(n, exact, exact));
}

}  // namespace

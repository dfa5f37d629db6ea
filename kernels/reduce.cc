#include "kernels/reduce.h"

namespace gbx::kernels {

namespace {
// Below this the loop is cheaper than the recursion, and the error bound is unchanged in order.
constexpr std::size_t kPairwiseBlock = 128;
}  // namespace

float reduce_naive(const float* x, std::size_t n) {
  float sum = 0.0f;
  for (std::size_t i = 0; i < n; ++i) sum += x[i];
  return sum;
}

float reduce_pairwise(const float* x, std::size_t n) {
  if (n <= kPairwiseBlock) return reduce_naive(x, n);
  const std::size_t half = n / 2;
  return reduce_pairwise(x, half) + reduce_pairwise(x + half, n - half);
}

float reduce_kahan(const float* x, std::size_t n) {
  float sum = 0.0f;
  float compensation = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    const float y = x[i] - compensation;
    const float t = sum + y;
    compensation = (t - sum) - y;
    sum = t;
  }
  return sum;
}

float reduce_double(const float* x, std::size_t n) { return static_cast<float>(reduce_reference(x, n)); }

double reduce_reference(const float* x, std::size_t n) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += static_cast<double>(x[i]);
  return sum;
}

}  // namespace gbx::kernels

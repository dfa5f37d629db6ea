#include "model/accuracy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gbx {

namespace {

template <class T>
Accuracy compare(const T* out, const double* ref, std::size_t count) {
  Accuracy a;
  double error_squares = 0.0;
  double reference_squares = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const double value = static_cast<double>(out[i]);
    reference_squares += ref[i] * ref[i];
    if (!std::isfinite(value)) {
      ++a.nan_count;
      continue;
    }
    const double error = value - ref[i];
    error_squares += error * error;
    a.max_abs_error = std::max(a.max_abs_error, std::fabs(error));
  }
  a.rel_l2_error = reference_squares > 0.0 ? std::sqrt(error_squares / reference_squares) : std::sqrt(error_squares);
  return a;
}

}  // namespace

Accuracy compare_to_reference(const float* out, const double* ref, std::size_t count) {
  return compare(out, ref, count);
}

Accuracy compare_to_reference(const double* out, const double* ref, std::size_t count) {
  return compare(out, ref, count);
}

void poison(Span<float> values) { std::fill(values.begin(), values.end(), std::numeric_limits<float>::quiet_NaN()); }

void poison(Span<double> values) { std::fill(values.begin(), values.end(), std::numeric_limits<double>::quiet_NaN()); }

double tolerance_for(const std::string& precision, std::size_t accumulated_terms) {
  // Ten units of rounding of the accumulation, grown like a random walk (sqrt(terms)): generous
  // enough for reordered sums, tight enough that wrong results fail.
  const double growth = std::sqrt(static_cast<double>(std::max<std::size_t>(accumulated_terms, 1)));
  if (precision == "fp64") return 10.0 * 0x1p-53 * growth;
  const double fp32_accumulation = 10.0 * 0x1p-24 * growth;
  if (precision == "fp32") return fp32_accumulation;
  // Inputs rounded to a shorter significand, accumulated in fp32: the input rounding gives a
  // relative error of its unit roundoff whatever the length (errors and values grow alike).
  if (precision == "tf32" || precision == "fp16") return 10.0 * 0x1p-11 + fp32_accumulation;
  if (precision == "bf16") return 10.0 * 0x1p-8 + fp32_accumulation;
  throw std::invalid_argument("tolerance_for: unknown precision '" + precision + "'");
}

}  // namespace gbx

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/span.h"

namespace gbx {

// How far a kernel's output is from its float64 reference.
struct Accuracy {
  double rel_l2_error = 0.0;  // ||out - ref|| / ||ref||, over the finite outputs
  double max_abs_error = 0.0;
  std::int64_t nan_count = 0;  // NaN or infinite outputs: poisoned elements never written count here
  std::string reference;       // what the reference was, e.g. "float64 CPU reduction"
  double tolerance = 0.0;      // on rel_l2_error, set by the variant's precision
  bool passed = false;         // rel_l2_error <= tolerance and no NaN
  // Why a failed check may have failed, for the kernel's author, or empty; the accuracy_failed flag's
  // message ends with it (an output read before written finds the NaN it was poisoned with).
  std::string note;
};

// Compares out[i] with ref[i]. A reference of all zeros makes the relative error the absolute one.
Accuracy compare_to_reference(const float* out, const double* ref, std::size_t count);
Accuracy compare_to_reference(const double* out, const double* ref, std::size_t count);

// Fills an output with NaN, so that any element the kernel fails to write shows up as nan_count.
void poison(Span<float> values);
void poison(Span<double> values);

// Relative-L2 tolerance for a result accumulated over accumulated_terms terms in `precision`:
// fp64, fp32, or tf32/fp16/bf16 inputs with fp32 accumulation.
double tolerance_for(const std::string& precision, std::size_t accumulated_terms);

}  // namespace gbx

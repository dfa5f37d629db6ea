#pragma once

#include <string>

#include "extensions/cuda_unavailable.h"

namespace gbx {

// Empty when a CUDA device can be used; otherwise why not, in plain words, with a code.
UnavailableReason cuda_unavailable();
// The text alone.
std::string cuda_unavailable_reason();

}  // namespace gbx

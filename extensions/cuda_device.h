#pragma once

#include <string>

namespace gbx {

// Empty when a CUDA device can be used; otherwise why not, in the runtime's own words.
std::string cuda_unavailable_reason();

}  // namespace gbx

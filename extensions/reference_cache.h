#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gbx {

// Float64 references can cost more than the kernels they check (a 4096^3 GEMM takes seconds on
// the CPU): each is computed once per key (the problem and the input seed) and shared by every
// variant and repetition. The reference lives until the process ends.
const std::vector<double>& cached_reference(const std::string& key,
                                            const std::function<std::vector<double>()>& compute);

}  // namespace gbx

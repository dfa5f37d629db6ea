#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace gbx::tools {

// `gbx env BENCH_BINARY [FLAGS...]`: prints the environment a record of that binary would carry
// (gbx.environment) as indented JSON and returns 0; 2 when the binary cannot describe itself. The
// binary describes itself (--gbx_describe), since the build, CUDA and devices it sees are its own:
// the gbx tool links neither Google Benchmark nor CUDA.
int print_environment(const std::string& binary, const std::vector<std::string>& bench_args, std::ostream& out,
                      std::ostream& err);

}  // namespace gbx::tools

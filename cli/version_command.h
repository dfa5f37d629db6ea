#pragma once

#include <ostream>

namespace gbx::tools {

// gbx --version / gbx version: gbx's version, the source commit it was built from, and the Google
// Benchmark it was built against.
void print_version(std::ostream& out);

}  // namespace gbx::tools

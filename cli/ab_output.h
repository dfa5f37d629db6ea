#pragma once

#include <iosfwd>
#include <string>

#include "ab/records.h"

// What `gbx ab`'s interleaved design prints, and `gbx compare` over two of its records.
namespace gbx::tools {

// Prints the comparison (console, markdown or json) and returns the gate's exit code.
int print_paired(std::ostream& out, const std::string& format, const PairedComparison& comparison,
                 const std::string& base_path, const std::string& candidate_path);

}  // namespace gbx::tools

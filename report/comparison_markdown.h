#pragma once

#include <iosfwd>

#include "analysis/record_comparison.h"

namespace gbx::tools {

// The Markdown table of the rows and their sentences, as `gbx compare --format=markdown` prints them.
void print_comparison_markdown(std::ostream& out, const Comparison& comparison);

}  // namespace gbx::tools

#pragma once

#include <iosfwd>

#include "ab/options.h"

namespace gbx::tools {

// `gbx ab`: runs the two binaries' processes through the engine (ab/), which writes both records, then
// prints the comparison: the interleaved design's paired one (print_paired), or, with the whole-process
// design, `gbx compare`'s over the two records. Exit codes: those of the comparison (0, 1 when slower,
// 3 undecided), 2 bad input or incompatible, or 128 + the signal when interrupted (both records keep
// what finished).
int ab_command(const AbOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

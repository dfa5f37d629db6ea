#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "ab/options.h"

namespace gbx::tools {

// A duration as --budget takes it: "90", "90s", "2m", "1m30s", "1h", "500ms". Absent when it cannot
// be parsed or is not positive.
std::optional<double> parse_duration_seconds(const std::string& text);

// The interleaved design of `gbx ab` (docs/gating.md): K worker pairs, each a fresh base process
// and a fresh candidate process that stay alive side by side; within a pair, every benchmark runs
// block by block, the two sides alternating in an order a seeded coin draws for each block pair.
// Looks after 5, 10, 20, ... pairs stop the benchmarks already decided (alpha spending), and the
// budget left goes to the undecided. Writes both records (with gbx.ab.blocks) and returns the paired
// comparison for the command to print (print_paired: 1 a row is slower, 3 a row is undecided, 0
// otherwise). Ends early (AbResult::exit_code) with 2 on bad input (--budget included) or incompatible
// binaries, 128 + the signal when interrupted.
AbResult run_interleaved(const AbOptions& options, std::ostream& err);

}  // namespace gbx::tools

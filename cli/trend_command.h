#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace gbx::tools {

struct TrendOptions {
  std::vector<std::string> inputs;  // three records or more, in any order: they are put in date order
  std::string format = "console";   // console or markdown
  double alpha = 0.05;              // the permutation test's level
  std::uint64_t seed = 1;           // of the permutations: the same records give the same answer
};

// `gbx trend RECORDS...`: the change points of each benchmark's median across the records
// (stats/change_point.h), one line each: "reduce/n=4096 pairwise: 8.0% slower from run #7 (commit
// abc123)". Exit 1 when some benchmark's latest segment is slower than the one before it (a change
// point beyond the runs' noise), 0 otherwise; 2 on bad input (fewer than three records, a record that
// cannot be read), with a message naming the file or the flag.
int trend_command(const TrendOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

#pragma once

#include <string>
#include <vector>

namespace gbx {

// What each flag a benchmark may carry (gbx.flags[].flag) means, in plain words. The one place
// that says so: the console's legend and the reports read it from here.
struct FlagMeaning {
  std::string flag;     // e.g. "outliers"
  std::string meaning;  // one sentence
};

// Every flag, in the order the console lists them.
const std::vector<FlagMeaning>& flag_meanings();

// The meaning of one flag; empty for a flag this gbx does not know.
std::string flag_meaning(const std::string& flag);

// "  flag  meaning\n" for each known flag among `flags`, in flag_meanings() order; empty when none.
std::string flag_legend(const std::vector<std::string>& flags);

}  // namespace gbx

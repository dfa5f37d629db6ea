#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gbx::detail {

// Edit distance between two names, ignoring case: insertions, deletions, substitutions and swaps of
// two neighbouring characters each cost 1 (optimal string alignment), the slips a typist makes.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The known names nearest to a misspelled word, for "did you mean": those at the smallest distance,
// in the order given, if that distance is small for the word's length (a third of it, at most 3), so
// that a word unlike every name gets no suggestion rather than an unrelated one.
std::vector<std::string> nearest_spellings(const std::string& word, const std::vector<std::string>& known);

// "--a", "--a or --b", "--a, --b or --c": the suggestions as a sentence reads them, each after prefix.
std::string spelling_list(const std::vector<std::string>& names, const std::string& prefix);

}  // namespace gbx::detail

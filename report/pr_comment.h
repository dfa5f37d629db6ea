#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/record_comparison.h"

// A comparison as a pull-request comment: `gbx report --format=markdown` of two records, and
// `gbx compare` / `gbx ab --format=markdown`, write it (docs/dashboards.md). The first lines give the
// verdict counts and the suite's geometric-mean ratio with its interval; the rows that are not `same`
// follow with their sentences, slower first; the `same` rows sit in a collapsed <details>. Whatever does
// not fit the budget is left out, row by row, and the comment says what.

namespace gbx::tools {

// GitHub's limit on a comment's body, in characters. The budget is counted in bytes, which are never
// fewer than the characters, so a comment within it is within GitHub's limit.
constexpr std::size_t kGithubCommentLimit = 65536;

struct ComparisonComment {
  std::string verdict;                // the first lines: counts and the geometric-mean ratio, then a blank line
  std::string body;                   // "## Comparison: ..." with the listed rows, their sentences and the details
  std::vector<std::string> left_out;  // what did not fit, in words: "412 same rows"
};

// The comment of `comparison`, its body at most `budget` bytes. Labels name the sides ("#1", or files).
ComparisonComment comparison_comment(const Comparison& comparison, const std::string& base_label,
                                     const std::string& candidate_label, std::size_t budget);

// "Left out to stay under GitHub's 65,536-character comment limit: ...", or "" when nothing was.
std::string left_out_note(const std::vector<std::string>& left_out);

}  // namespace gbx::tools

#pragma once

#include <string>

#include "analysis/record_comparison.h"

namespace gbx::tools {

// The comparison table's header (two lines, each ending in a newline) and one row, as the
// pull-request comment (report/pr_comment.h) lists them.
extern const char* const kComparisonTableHeader;
std::string comparison_row_markdown(const ComparisonRow& row);

}  // namespace gbx::tools

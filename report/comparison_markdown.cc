#include "report/comparison_markdown.h"

#include "text/escape.h"
#include "text/format.h"

namespace gbx::tools {

const char* const kComparisonTableHeader =
    "| Benchmark | Base | Candidate | Ratio [95% CI] | p (BH) | Verdict |\n|---|---|---|---|---|---|\n";

std::string comparison_row_markdown(const ComparisonRow& row) {
  // Record text (names, what differs) is data: see text/escape.h.
  std::string line = "| " + markdown_text(row.label) + " | " +
                     format_duration(shown_median(row.base_processes, row.base_median)) + " | " +
                     format_duration(shown_median(row.candidate_processes, row.candidate_median)) + " | ";
  if (row.ratio) {
    line += format_fixed(row.ratio->ratio, 3) + " [" + format_fixed(row.ratio->lower, 3) + ", " +
            format_fixed(row.ratio->upper, 3) + "]";
  } else {
    line += "-";
  }
  line += std::string(" | ") + (row.adjusted_p < 0.001 ? "<0.001" : format_fixed(row.adjusted_p, 3)) + " | **" +
          verdict_text(row) + "**" + (row.incompatible ? " (incompatible)" : "") + " |\n";
  return line;
}

}  // namespace gbx::tools

#include "report/comparison_markdown.h"

#include <ostream>

#include "text/escape.h"
#include "text/format.h"

namespace gbx::tools {

void print_comparison_markdown(std::ostream& out, const Comparison& comparison) {
  // Record text (names, what differs) is data: see text/escape.h.
  const auto text = [](const std::string& raw) { return markdown_text(raw); };
  const auto& rows = comparison.rows;
  out << "| Benchmark | Base | Candidate | Ratio [95% CI] | p (BH) | Verdict |\n|---|---|---|---|---|---|\n";
  for (const auto& row : rows) {
    out << "| " << text(row.label) << " | " << format_duration(shown_median(row.base_processes, row.base_median))
        << " | " << format_duration(shown_median(row.candidate_processes, row.candidate_median)) << " | ";
    if (row.ratio) {
      out << format_fixed(row.ratio->ratio, 3) << " [" << format_fixed(row.ratio->lower, 3) << ", "
          << format_fixed(row.ratio->upper, 3) << "]";
    } else {
      out << "-";
    }
    out << " | " << (row.adjusted_p < 0.001 ? "<0.001" : format_fixed(row.adjusted_p, 3)) << " | **"
        << to_string(row.verdict) << "**" << (row.incompatible ? " (incompatible)" : "") << " |\n";
  }
  out << "\n";
  for (const auto& row : rows) out << "- " << text(row.sentence) << "\n";
}

}  // namespace gbx::tools

#include "report/pr_comment.h"

#include <algorithm>

#include "report/comparison_markdown.h"
#include "report/suite_ratio.h"
#include "text/benchmark_name.h"
#include "text/escape.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

// Slower first: a reader acts on regressions; then faster, then the rows that could not be decided.
int listing_order(Verdict verdict) {
  switch (verdict) {
    case Verdict::slower:
      return 0;
    case Verdict::faster:
      return 1;
    case Verdict::inconclusive:
      return 2;
    case Verdict::unreplicated:
      return 3;
    case Verdict::insufficient:
      return 4;
    case Verdict::same:
      return 5;
  }
  return 5;
}

std::string count_text(std::size_t n, const char* what) { return std::to_string(n) + " " + what; }

// An inaccurate candidate is listed before everything else: the gate fails it whatever its speed.
int row_order(const ComparisonRow& row) { return candidate_inaccurate(row) ? -1 : listing_order(row.verdict); }

std::string verdict_lines(const Comparison& comparison, const std::string& base, const std::string& candidate) {
  std::size_t counts[6] = {0, 0, 0, 0, 0, 0};
  std::size_t inaccurate = 0;
  for (const auto& row : comparison.rows) {
    if (candidate_inaccurate(row)) {
      ++inaccurate;
    } else {
      ++counts[listing_order(row.verdict)];
    }
  }
  std::string line = "**" + markdown_text(candidate) + " against " + markdown_text(base) + ": " +
                     count_text(counts[0], "slower") + ", " + count_text(counts[1], "faster") + ", " +
                     count_text(counts[5], "same") + ", " + count_text(counts[2], "inconclusive");
  if (counts[3] > 0) line += ", " + count_text(counts[3], "unreplicated");
  if (counts[4] > 0) line += ", " + count_text(counts[4], "insufficient");
  if (inaccurate > 0) line += ", " + count_text(inaccurate, "inaccurate (failed the accuracy check)");
  line += "** of " + std::to_string(comparison.rows.size()) + " benchmarks in both.";
  if (!comparison.compatible()) line += " **The records are not compatible**: see the comparison.";
  line += "\n";
  if (const auto suite = geometric_mean_ratio(comparison.rows)) {
    line += "Suite geometric-mean ratio (candidate / base): **" + format_fixed(suite->ratio, 3) + "** [" +
            format_fixed(suite->lower, 3) + ", " + format_fixed(suite->upper, 3) + "] 95% CI, over " +
            std::to_string(suite->rows) + (suite->rows == 1 ? " benchmark" : " benchmarks") +
            " (each row's own interval; below 1 is faster).\n";
  } else {
    line += "Suite geometric-mean ratio: no row has a ratio to average.\n";
  }
  return line + "\n";
}

// Appends whole pieces while they fit; counts the ones that did not.
struct Budget {
  std::string& text;
  std::size_t limit;
  bool add(const std::string& piece) {
    if (text.size() + piece.size() > limit) return false;
    text += piece;
    return true;
  }
};

// Room kept for what closes a section (the details' end, a blank line) after its rows stop.
constexpr std::size_t kClosing = 64;

}  // namespace

ComparisonComment comparison_comment(const Comparison& comparison, const std::string& base_label,
                                     const std::string& candidate_label, std::size_t budget) {
  ComparisonComment comment;
  comment.verdict = verdict_lines(comparison, base_label, candidate_label);
  std::vector<const ComparisonRow*> listed;
  std::vector<const ComparisonRow*> same;
  for (const auto& row : comparison.rows) {
    (row.verdict == Verdict::same && !candidate_inaccurate(row) ? same : listed).push_back(&row);
  }
  std::stable_sort(listed.begin(), listed.end(),
                   [](const ComparisonRow* a, const ComparisonRow* b) { return row_order(*a) < row_order(*b); });

  std::string& body = comment.body;
  Budget room{body, budget > kClosing ? budget - kClosing : 0};
  room.add("## Comparison: " + markdown_text(candidate_label) + " against " + markdown_text(base_label) +
           "\n\nThe ratio is candidate / base; a row is `same` when its interval lies within the noise band.\n\n");
  if (!comparison.compatible()) {
    std::string warning =
        "> **Warning: the records are not compatible**, so this is not a sound comparison. These facts differ:\n";
    for (const auto& d : comparison.differences) {
      warning += "> - " + markdown_text(d.what) + ": base " + markdown_code(d.base) + ", candidate " +
                 markdown_code(d.candidate) + "\n";
    }
    if (!room.add(warning + "\n")) comment.left_out.push_back("the list of facts that differ");
  }
  if (comparison.rows.empty()) room.add("The records have no benchmark name in common.\n\n");

  // The rows that moved or could not be decided, each with its sentence: as many pairs as fit.
  std::size_t shown = 0;
  std::size_t size = std::string(kComparisonTableHeader).size() + 2;
  for (const ComparisonRow* row : listed) {
    size += comparison_row_markdown(*row).size() + markdown_text(row->sentence).size() + 3;
    if (body.size() + size > room.limit) break;
    ++shown;
  }
  if (!listed.empty() && shown > 0) {
    body += "### Not the same (" + std::to_string(listed.size()) + ")\n\n" + kComparisonTableHeader;
    for (std::size_t i = 0; i < shown; ++i) body += comparison_row_markdown(*listed[i]);
    body += "\n";
    for (std::size_t i = 0; i < shown; ++i) body += "- " + markdown_text(listed[i]->sentence) + "\n";
    body += "\n";
  }
  if (shown < listed.size())
    comment.left_out.push_back(std::to_string(listed.size() - shown) + " rows that are not the same");

  // The same rows, collapsed, as many as fit.
  if (!same.empty()) {
    const std::string open = "<details><summary>" + std::to_string(same.size()) +
                             (same.size() == 1 ? " benchmark" : " benchmarks") + " the same</summary>\n\n" +
                             kComparisonTableHeader;
    std::size_t kept = 0;
    if (room.add(open)) {
      for (const ComparisonRow* row : same) {
        if (!room.add(comparison_row_markdown(*row))) break;
        ++kept;
      }
      // Their sentences too, as far as they fit: a reader who opens the list sees why each is the same.
      if (kept > 0) room.add("\n");
      for (std::size_t i = 0; i < kept; ++i) {
        if (!room.add("- " + markdown_text(same[i]->sentence) + "\n")) break;
      }
      body += "\n</details>\n\n";
    }
    if (kept < same.size()) comment.left_out.push_back(std::to_string(same.size() - kept) + " same rows");
  }
  std::size_t names_left = 0;
  for (const auto& [list, where] : {std::pair{&comparison.only_in_base, "only in the base: "},
                                    std::pair{&comparison.only_in_candidate, "only in the candidate: "}}) {
    for (const auto& name : *list)
      names_left += room.add("- " + std::string(where) + markdown_code(shown_benchmark_name(name)) + "\n") ? 0 : 1;
  }
  if (names_left > 0) comment.left_out.push_back(std::to_string(names_left) + " names in one record only");
  if (comparison.fewer_facts) room.add("\nNote: " + std::string(kFewerFactsNote) + ".\n");
  body += "\n";
  return comment;
}

std::string left_out_note(const std::vector<std::string>& left_out) {
  if (left_out.empty()) return "";
  std::string list;
  for (std::size_t i = 0; i < left_out.size(); ++i) list += (i == 0 ? "" : "; ") + left_out[i];
  return "*Left out to stay under GitHub's 65,536-character comment limit: " + list +
         ". `gbx compare --format=json` and the HTML report (`gbx report`) hold everything.*\n\n";
}

}  // namespace gbx::tools

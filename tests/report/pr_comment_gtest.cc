// The pull-request comment (report/pr_comment.h) of a 1,000-benchmark comparison, built in memory so
// that the test measures the writer, not the statistics; and the suite's geometric-mean ratio against
// values computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "report/markdown_report.h"
#include "report/pr_comment.h"
#include "report/suite_ratio.h"
#include "tests/support/regex.h"

namespace {

using gbx::Verdict;
using gbx::tools::Comparison;
using gbx::tools::ComparisonRow;

ComparisonRow row(std::size_t i, Verdict verdict, double ratio) {
  ComparisonRow r;
  r.name = "BM_scale/" + std::to_string(i / 10) + "/v" + std::to_string(i % 10) + "/iterations:1/manual_time";
  r.label = "scale/n=" + std::to_string(i / 10) + ",block=256,layout=row_major v" + std::to_string(i % 10);
  r.ratio = gbx::RatioInterval{ratio, ratio * 0.98, ratio * 1.02, 0.95, "welch-t-log-process-medians", 0, 0};
  r.adjusted_p = 0.01;
  r.verdict = verdict;
  r.sentence = r.label + ": " + gbx::to_string(verdict) + ", ratio " + std::to_string(ratio) +
               " [..] 95% CI, p = 0.010 (BH-adjusted), over 10 processes per side; the interval lies outside "
               "the noise band of +/-2.0%, so the change is larger than the run-to-run variation measured.";
  return r;
}

// 30 slower, 20 faster, 50 inconclusive and 900 same, interleaved as a real suite would have them.
Comparison thousand() {
  Comparison c;
  for (std::size_t i = 0; i < 1000; ++i) {
    if (i % 33 == 5 && i < 990) {
      c.rows.push_back(row(i, Verdict::slower, 1.2));
    } else if (i % 50 == 7) {
      c.rows.push_back(row(i, Verdict::faster, 0.8));
    } else if (i % 20 == 3) {
      c.rows.push_back(row(i, Verdict::inconclusive, 1.03));
    } else {
      c.rows.push_back(row(i, Verdict::same, 1.0));
    }
  }
  return c;
}

std::size_t count(const Comparison& c, Verdict v) {
  std::size_t n = 0;
  for (const auto& r : c.rows) n += r.verdict == v ? 1 : 0;
  return n;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string report_markdown(const Comparison& comparison) {
  gbx::tools::ReportModel model;
  model.runs.resize(2);
  model.runs[0].label = "#1";
  model.runs[1].label = "#2";
  model.comparison = comparison;
  std::ostringstream out;
  gbx::tools::write_markdown_report(out, model);
  return out.str();
}

TEST(PullRequestComment, AThousandBenchmarksFitWithTheVerdictFirst) {
  const Comparison c = thousand();
  const std::size_t slower = count(c, Verdict::slower), faster = count(c, Verdict::faster),
                    inconclusive = count(c, Verdict::inconclusive), same = count(c, Verdict::same);
  ASSERT_EQ(slower + faster + inconclusive + same, 1000U);
  const std::string md = report_markdown(c);
  EXPECT_LT(md.size(), gbx::tools::kGithubCommentLimit) << md.size();
  const auto lines = lines_of(md);
  ASSERT_GE(lines.size(), 4U);
  EXPECT_EQ(lines[0], "# gbx report");
  EXPECT_EQ(lines[2], "**#2 against #1: " + std::to_string(slower) + " slower, " + std::to_string(faster) +
                          " faster, " + std::to_string(same) + " same, " + std::to_string(inconclusive) +
                          " inconclusive** of 1000 benchmarks in both.");
  EXPECT_TRUE(gbx_test::regex_match(
      lines[3],
      R"(Suite geometric-mean ratio \(candidate / base\): \*\*1\.0[0-9]{2}\*\* \[[0-9.]+, [0-9.]+\] 95% CI, over 1000 benchmarks.*)"))
      << lines[3];
  // Every row that is not the same is listed with its sentence, slower ones first; no same one's sentence is.
  std::size_t sentences = 0, same_sentences = 0, first_slower = 0, first_faster = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("- scale/", 0) != 0) continue;
    ++sentences;
    if (lines[i].find(": same,") != std::string::npos) ++same_sentences;
    if (!first_slower && lines[i].find(": slower,") != std::string::npos) first_slower = i;
    if (!first_faster && lines[i].find(": faster,") != std::string::npos) first_faster = i;
  }
  EXPECT_EQ(sentences, slower + faster + inconclusive);
  EXPECT_EQ(same_sentences, 0U);
  EXPECT_LT(first_slower, first_faster);
  // The same rows are collapsed; those that did not fit are counted in the note near the top.
  const auto details = md.find("<details><summary>" + std::to_string(same) + " benchmarks the same</summary>");
  ASSERT_NE(details, std::string::npos) << md.substr(0, 2000);
  EXPECT_NE(md.find("</details>", details), std::string::npos);
  std::size_t same_rows = 0;
  for (const auto& line : lines) same_rows += line.find(" | **same** |") != std::string::npos ? 1 : 0;
  const std::string note =
      "*Left out to stay under GitHub's 65,536-character comment limit: " + std::to_string(same - same_rows) +
      " same rows";
  if (same_rows < same) {
    EXPECT_TRUE(lines[5].rfind(note, 0) == 0) << lines[5];
  }
  EXPECT_GT(same_rows, 100U) << "the room left is used";
}

TEST(PullRequestComment, RowsThatMovedAreCutWhenEvenTheyDoNotFitAndTheNoteSaysSo) {
  Comparison c;
  for (std::size_t i = 0; i < 1000; ++i) c.rows.push_back(row(i, Verdict::slower, 1.2));
  const auto comment = gbx::tools::comparison_comment(c, "base.json", "cand.json", 60000);
  EXPECT_LE(comment.body.size(), 60000U);
  ASSERT_EQ(comment.left_out.size(), 1U);
  EXPECT_TRUE(gbx_test::regex_match(comment.left_out[0], "[0-9]+ rows that are not the same")) << comment.left_out[0];
  EXPECT_EQ(comment.verdict.rfind("**cand.json against base.json: 1000 slower, 0 faster, 0 same, 0 inconclusive**", 0),
            0U)
      << comment.verdict;
}

TEST(PullRequestComment, TheGeometricMeanRatioAndItsIntervalAsComputedByHand) {
  Comparison c;
  c.rows.push_back(row(0, Verdict::slower, 1.1));
  c.rows.back().ratio = gbx::RatioInterval{1.1, 1.0, 1.21, 0.95, "", 0, 0};
  c.rows.push_back(row(1, Verdict::faster, 0.9));
  c.rows.back().ratio = gbx::RatioInterval{0.9, 0.81, 1.0, 0.95, "", 0, 0};
  c.rows.push_back(row(2, Verdict::insufficient, 1.0));
  c.rows.back().ratio.reset();  // no ratio: not averaged
  const auto suite = gbx::tools::geometric_mean_ratio(c.rows);
  ASSERT_TRUE(suite.has_value());
  // exp of the mean log ratio; the half-width sqrt(log(1.1)^2 + log(0.9)^2) / 2 on the log scale.
  EXPECT_NEAR(suite->ratio, 0.99498743710662, 1e-12);
  EXPECT_NEAR(suite->lower, 0.9267588393585382, 1e-12);
  EXPECT_NEAR(suite->upper, 1.0682390692763553, 1e-12);
  EXPECT_EQ(suite->rows, 2U);
}

}  // namespace

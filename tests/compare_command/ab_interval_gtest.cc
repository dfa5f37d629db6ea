// gbx ab's intervals as printed: a side the group-sequential analysis left unbounded at an early look
// (too few worker pairs for the look's signed-rank level) is kept as e^-50 or e^50 in the numbers and
// must read 0 or inf, never as a ratio of 10^21, in the table, the sentence and the summary; the JSON
// says so with "bounded".
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "ab/paired.h"
#include "cli/ab_output.h"

namespace {

using gbx::tools::interval_bounded;
using gbx::tools::interval_text;

TEST(AbInterval, ABoundedIntervalReadsAsItsTwoRatios) {
  EXPECT_EQ(interval_text(0.998, 1.004), "[0.998, 1.004]");
  EXPECT_TRUE(interval_bounded(0.998, 1.004));
  // Wide but measured: a 1000x ratio is not the clamp.
  EXPECT_EQ(interval_text(0.001, 1000.0), "[0.001, 1000.000]");
  EXPECT_TRUE(interval_bounded(0.001, 1000.0));
}

TEST(AbInterval, TheClampReadsAsZeroOrInfinity) {
  EXPECT_EQ(interval_text(std::exp(-50.0), std::exp(50.0)), "[0, inf]");
  EXPECT_EQ(interval_text(0.995, std::exp(50.0)), "[0.995, inf]");
  EXPECT_EQ(interval_text(std::exp(-50.0), 1.01), "[0, 1.010]");
  EXPECT_FALSE(interval_bounded(0.995, std::exp(50.0)));
  EXPECT_FALSE(interval_bounded(std::exp(-50.0), 1.01));
}

// A row decided `same` at a look where its 95% difference interval was still unbounded (seen on
// 4 December 2026: "1.000 [0.000, 5184705528587072045056.000] ... same").
gbx::tools::PairedComparison same_row_with_unbounded_difference() {
  gbx::tools::PairedComparison c;
  gbx::tools::PairedResult r;
  r.name = "reduce/naive/n:4096";
  r.pair_log_ratios = std::vector<double>(10, 0.0001);
  r.block_pairs = 480;
  r.ratio = 1.0001;
  r.lower = std::exp(-50.0);
  r.upper = std::exp(50.0);
  r.equivalence_lower = 0.998;
  r.equivalence_upper = 1.0004;
  r.mde = 0.007;
  r.verdict = gbx::Verdict::same;
  c.rows.push_back(r);
  return c;
}

// Seen on 5 December 2026 (aa-check, a bandwidth run of 6 pairs): "inconclusive: a change of 1.9% or
// more would have been seen; ratio 1.040 [1.029, 1.054]", a 4% change beside an MDE of 1.9%, held back by
// the exact test's least p (1/32) after Benjamini-Hochberg over 4 rows (0.125).
gbx::tools::PairedResult held_back_row(const std::string& test) {
  gbx::tools::PairedResult r;
  r.name = "bandwidth/memcpy/n:65536";
  r.pair_log_ratios = {0.04, 0.035, 0.045, 0.04, 0.03, 0.05};
  r.block_pairs = 93;
  r.ratio = 1.040;
  r.lower = 1.0294;
  r.upper = 1.0539;
  r.equivalence_lower = 1.031;
  r.equivalence_upper = 1.050;
  r.p_value = 0.125;
  r.test = test;
  r.mde = 0.0189;
  r.verdict = gbx::Verdict::inconclusive;
  return r;
}

TEST(AbInterval, AnUndecidedRowBeyondTheBandSaysWhatHeldItBack) {
  const std::string exact = gbx::tools::paired_sentence(held_back_row("weighted-sign-flip-exact"), 0.005, 0.02);
  EXPECT_EQ(exact,
            "bandwidth/memcpy/n:65536: inconclusive: beyond the noise band, but not significant across the benchmarks "
            "(adjusted p 0.125; with 6 worker pairs an exact test's p is at least 0.031): more worker pairs, from a "
            "larger --budget, would decide it; ratio 1.040 [1.029, 1.054], 6 worker pairs, 93 interleaved block pairs");
  const std::string hksj = gbx::tools::paired_sentence(held_back_row("weighted-hksj-t"), 0.005, 0.02);
  EXPECT_NE(hksj.find("(adjusted p 0.125): more worker pairs"), std::string::npos) << hksj;
  // Within the band an undecided row keeps its MDE.
  gbx::tools::PairedResult within = held_back_row("weighted-sign-flip-exact");
  within.lower = 0.991;
  within.upper = 1.054;
  EXPECT_NE(gbx::tools::paired_sentence(within, 0.005, 0.02).find("inconclusive: a change of 1.9% or more would"),
            std::string::npos);
}

TEST(AbInterval, TheConsoleAndMarkdownNeverPrintTheClamp) {
  for (const char* format : {"console", "markdown"}) {
    std::ostringstream out;
    gbx::tools::print_paired(out, format, same_row_with_unbounded_difference(), "base.json", "candidate.json");
    const std::string text = out.str();
    EXPECT_EQ(text.find("5184705528587072045056"), std::string::npos) << format << ":\n" << text;
    EXPECT_EQ(text.find("0.000, "), std::string::npos) << format << ":\n" << text;
    EXPECT_NE(text.find("1.000 [0, inf]"), std::string::npos) << format << ":\n" << text;
    EXPECT_NE(text.find("0.998, 1.000"), std::string::npos) << format << ":\n" << text;  // markdown escapes [
  }
}

TEST(AbInterval, TheJsonMarksAnUnboundedInterval) {
  std::ostringstream out;
  gbx::tools::print_paired(out, "json", same_row_with_unbounded_difference(), "base.json", "candidate.json");
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_FALSE(j["rows"][0]["ratio"]["bounded"].get<bool>()) << j.dump(2);
  EXPECT_TRUE(j["rows"][0]["equivalence_interval"]["bounded"].get<bool>()) << j.dump(2);
}

}  // namespace

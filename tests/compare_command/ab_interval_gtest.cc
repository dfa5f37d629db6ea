// gbx ab's intervals as printed: a side the group-sequential analysis left unbounded at an early look
// (too few worker pairs for the look's signed-rank level) is kept as e^-50 or e^50 in the numbers and
// must read 0 or inf, never as a ratio of 10^21, in the table, the sentence and the summary; the JSON
// says so with "bounded".
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "cli/ab_output.h"
#include "cli/ab_paired.h"

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

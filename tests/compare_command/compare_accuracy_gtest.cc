// A row's words and verdict when a side failed its accuracy check (analysis/record_comparison.h): only
// the candidate failing makes the row "inaccurate", which the gate fails; a base that fails, or both, is
// said after the timing.
#include <gtest/gtest.h>

#include <string>

#include "analysis/record_comparison.h"

namespace {

using gbx::tools::ComparisonRow;
using gbx::tools::with_accuracy;

TEST(CompareAccuracy, OnlyTheCandidateFailingIsInaccurate) {
  EXPECT_EQ(with_accuracy("r", "the same within +/-2%", "", "rel L2 error 0.01 > tolerance 1e-06"),
            "r: inaccurate: the candidate failed its accuracy check (rel L2 error 0.01 > tolerance 1e-06) where the "
            "base passed; its timing: the same within +/-2%");
  EXPECT_EQ(with_accuracy("r", "5.0% faster", "e1", "e2"),
            "r: 5.0% faster; both sides failed their accuracy check (base: e1; candidate: e2)");
  EXPECT_EQ(with_accuracy("r", "5.0% faster", "e1", ""),
            "r: 5.0% faster; the base failed its accuracy check (e1) and the candidate passed");
  EXPECT_EQ(with_accuracy("r", "5.0% faster", "", ""), "r: 5.0% faster");
}

TEST(CompareAccuracy, TheVerdictColumnSaysInaccurateOverTheTimesVerdict) {
  ComparisonRow row;
  row.verdict = gbx::Verdict::faster;
  EXPECT_EQ(gbx::tools::verdict_text(row), "faster");
  row.candidate_accuracy_failure = "rel L2 error 0.01 > tolerance 1e-06";
  EXPECT_TRUE(gbx::tools::candidate_inaccurate(row));
  EXPECT_EQ(gbx::tools::verdict_text(row), "inaccurate");
  row.base_accuracy_failure = "rel L2 error 0.02 > tolerance 1e-06";
  EXPECT_FALSE(gbx::tools::candidate_inaccurate(row));
  EXPECT_EQ(gbx::tools::verdict_text(row), "faster");
}

}  // namespace

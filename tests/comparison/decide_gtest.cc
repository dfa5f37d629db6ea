// decide and to_string on hand-made intervals.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "stats/comparison.h"

namespace gbx {
namespace {

RatioInterval interval(double lower, double upper) {
  RatioInterval result;
  result.ratio = 0.5 * (lower + upper);
  result.lower = lower;
  result.upper = upper;
  return result;
}

TEST(Decide, TheFourVerdicts) {
  EXPECT_EQ(decide(0.001, interval(1.04, 1.06)), Verdict::slower);
  EXPECT_EQ(decide(0.001, interval(0.90, 0.95)), Verdict::faster);
  EXPECT_EQ(decide(0.5, interval(0.99, 1.01)), Verdict::same);
  EXPECT_EQ(decide(0.001, interval(0.99, 1.01)), Verdict::same);  // significant but negligible
  EXPECT_EQ(decide(0.5, interval(0.95, 1.05)), Verdict::inconclusive);
}

TEST(Decide, SignificanceIsRequiredForAChange) {
  EXPECT_EQ(decide(0.06, interval(1.04, 1.06)), Verdict::inconclusive);
  EXPECT_EQ(decide(0.05, interval(1.04, 1.06)), Verdict::slower);  // adjusted_p <= q
  EXPECT_EQ(decide(0.06, interval(1.04, 1.06), 0.02, 0.1), Verdict::slower);
  EXPECT_EQ(decide(std::nan(""), interval(1.04, 1.06)), Verdict::inconclusive);
}

TEST(Decide, TheWholeIntervalMustClearTheBand) {
  EXPECT_EQ(decide(0.001, interval(1.01, 1.06)), Verdict::inconclusive);   // straddles 1.02
  EXPECT_EQ(decide(0.001, interval(0.97, 0.99)), Verdict::inconclusive);   // straddles 0.98
  EXPECT_EQ(decide(0.001, interval(1.01, 1.06), 0.005), Verdict::slower);  // a narrower band
  EXPECT_EQ(decide(0.5, interval(1.01, 1.06), 0.1), Verdict::same);        // a wider one
  EXPECT_EQ(decide(0.5, interval(0.98, 1.02)), Verdict::same);             // the band's edges count as inside
}

TEST(Decide, Names) {
  EXPECT_EQ(std::string(to_string(Verdict::faster)), "faster");
  EXPECT_EQ(std::string(to_string(Verdict::slower)), "slower");
  EXPECT_EQ(std::string(to_string(Verdict::same)), "same");
  EXPECT_EQ(std::string(to_string(Verdict::inconclusive)), "inconclusive");
}

}  // namespace
}  // namespace gbx

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

ComparisonEvidence evidence(std::size_t base_samples, std::size_t candidate_samples, std::size_t base_processes,
                            std::size_t candidate_processes) {
  return {base_samples, candidate_samples, base_processes, candidate_processes};
}

TEST(CompareRule, ProcessLevelKeepsTheIntervalRule) {
  const ComparisonEvidence both = evidence(100, 100, 10, 10);
  EXPECT_EQ(decide(0.001, interval(1.04, 1.06), both), Verdict::slower);
  EXPECT_EQ(decide(0.001, interval(0.90, 0.95), both), Verdict::faster);
  EXPECT_EQ(decide(0.5, interval(0.99, 1.01), both), Verdict::same);
  EXPECT_EQ(decide(0.5, interval(0.95, 1.05), both), Verdict::inconclusive);
  EXPECT_EQ(decide(0.001, interval(1.04, 1.06), evidence(100, 100, 2, 2)), Verdict::slower);  // 2 is enough
}

TEST(CompareRule, OneProcessOnEitherSideTurnsAChangeIntoUnreplicated) {
  for (const ComparisonEvidence& e : {evidence(100, 100, 1, 1), evidence(100, 100, 1, 10), evidence(100, 100, 10, 1)}) {
    EXPECT_EQ(decide(0.001, interval(1.04, 1.06), e), Verdict::unreplicated);
    EXPECT_EQ(decide(0.001, interval(0.90, 0.95), e), Verdict::unreplicated);
    EXPECT_EQ(decide(0.5, interval(0.99, 1.01), e), Verdict::same);
    EXPECT_EQ(decide(0.5, interval(0.95, 1.05), e), Verdict::inconclusive);
    EXPECT_EQ(decide(0.06, interval(1.04, 1.06), e), Verdict::inconclusive);  // not significant: no change at all
  }
}

TEST(CompareRule, FewerThanTheMinimumSamplesIsInsufficientWhateverTheInterval) {
  const std::size_t few = kMinSamplesPerSide - 1;
  EXPECT_GE(kMinSamplesPerSide, 2u);
  for (const ComparisonEvidence& e : {evidence(few, 100, 10, 10), evidence(100, few, 10, 10), evidence(1, 1, 1, 1)}) {
    EXPECT_EQ(decide(0.5, interval(1.0, 1.0), e), Verdict::insufficient);  // a zero-width interval: once "same"
    EXPECT_EQ(decide(0.001, interval(1.04, 1.06), e), Verdict::insufficient);
  }
  EXPECT_EQ(decide(0.5, interval(1.0, 1.0), evidence(kMinSamplesPerSide, kMinSamplesPerSide, 1, 1)), Verdict::same);
}

TEST(CompareRule, ExitCodes) {
  EXPECT_EQ(gate_exit_code({}), 0);
  EXPECT_EQ(gate_exit_code({Verdict::same, Verdict::faster, Verdict::inconclusive}), 0);
  EXPECT_EQ(gate_exit_code({Verdict::same, Verdict::unreplicated}), 3);
  EXPECT_EQ(gate_exit_code({Verdict::insufficient, Verdict::faster}), 3);
  EXPECT_EQ(gate_exit_code({Verdict::unreplicated, Verdict::slower, Verdict::insufficient}), 1);
}

TEST(Decide, Names) {
  EXPECT_EQ(std::string(to_string(Verdict::unreplicated)), "unreplicated");
  EXPECT_EQ(std::string(to_string(Verdict::insufficient)), "insufficient");
  EXPECT_EQ(std::string(to_string(Verdict::faster)), "faster");
  EXPECT_EQ(std::string(to_string(Verdict::slower)), "slower");
  EXPECT_EQ(std::string(to_string(Verdict::same)), "same");
  EXPECT_EQ(std::string(to_string(Verdict::inconclusive)), "inconclusive");
}

}  // namespace
}  // namespace gbx

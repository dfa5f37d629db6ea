// stats/sequential.h's futility rule: chance_to_decide against values worked by hand (Python's
// statistics.NormalDist and published t quantiles: t(19) 2.093024 and 1.729133, t(11) 2.200985 and
// 1.795885), and stop_if_futile's conditions.
#include <cmath>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "stats/sequential.h"

namespace gbx {
namespace {

PairedAnalysis analysis_of(std::size_t pairs, double se, double log_ratio) {
  PairedAnalysis a;
  a.pairs = pairs;
  a.replicated = pairs >= 2;
  a.se_log_ratio = se;
  a.ratio = std::exp(log_ratio);
  return a;
}

TEST(ChanceToDecide, AQuietRowThatMoreBudgetWouldCallSame) {
  // K = 5, se 1%, no change, 20 pairs reachable: se' = 0.5%, tau = 0.433%; slower and faster
  // 0.000179 each, same Phi(2.5766) - Phi(-2.6690) = 0.991207.
  const auto chance = chance_to_decide(analysis_of(5, 0.01, 0.0), 20, PairedOptions{});
  ASSERT_TRUE(chance);
  EXPECT_NEAR(*chance, 0.991566, 2e-5);
}

TEST(ChanceToDecide, AChangeThatMoreBudgetWouldCallSlower) {
  // K = 5, se 1%, 3% slower, 20 reachable: slower 0.999438, same 1.07e-5.
  const auto chance = chance_to_decide(analysis_of(5, 0.01, std::log(1.03)), 20, PairedOptions{});
  ASSERT_TRUE(chance);
  EXPECT_NEAR(*chance, 0.999449, 2e-5);
}

TEST(ChanceToDecide, ANoisyRowTheBudgetLeftCannotDecide) {
  // K = 5, se 3% (pairs 6.7% apart), +1%, 12 reachable: the 90% half-width at 12 pairs (3.5%) is beyond
  // the 2% margin, so same is out of reach; slower 0.005497, faster 0.000049.
  const auto chance = chance_to_decide(analysis_of(5, 0.03, 0.01), 12, PairedOptions{});
  ASSERT_TRUE(chance);
  EXPECT_NEAR(*chance, 0.005547, 2e-5);
}

TEST(ChanceToDecide, GrowsWithThePairsReachable) {
  const PairedAnalysis noisy = analysis_of(5, 0.03, 0.0);
  double previous = 0.0;
  for (std::size_t reachable : {8, 12, 20, 40, 80, 160}) {
    const auto chance = chance_to_decide(noisy, reachable, PairedOptions{});
    ASSERT_TRUE(chance);
    EXPECT_GE(*chance, previous) << reachable;
    previous = *chance;
  }
  EXPECT_GT(previous, 0.9);  // 160 pairs: se' 0.53%, same is all but sure
}

TEST(ChanceToDecide, AbsentWithoutAReplicatedEstimateOrMorePairs) {
  EXPECT_FALSE(chance_to_decide(analysis_of(1, 0.01, 0.0), 20, PairedOptions{}));
  EXPECT_FALSE(chance_to_decide(analysis_of(5, 0.01, 0.0), 5, PairedOptions{}));
  PairedAnalysis no_se = analysis_of(5, 0.01, 0.0);
  no_se.se_log_ratio.reset();
  EXPECT_FALSE(chance_to_decide(no_se, 20, PairedOptions{}));
}

TEST(ChanceToDecide, PairsThatAllAgreeDecideForSure) {
  // se 0: the final estimate is the current one; inside the margin, same is certain.
  const auto chance = chance_to_decide(analysis_of(5, 0.0, 0.001), 20, PairedOptions{});
  ASSERT_TRUE(chance);
  EXPECT_DOUBLE_EQ(*chance, 1.0);
}

TEST(ChanceToDecide, OneSlowProcessAmongTheFirstPairsDoesNotMakeARowHopeless) {
  // x_k 0, 0.2%, -0.2%, 0.1% and one pair 65% off (a slow process): their sd, 22.4%, gives se 10.0%,
  // with which not even 20 pairs could call anything; the robust se, 1.4826 MAD / sqrt(5) = 0.066%,
  // says that the other pairs agree, as the tests' weights and ranks will.
  PairedAnalysis a = analysis_of(5, 0.09995, 0.001);
  for (double x : {0.0, 0.002, -0.002, 0.001, 0.5}) {
    PairEstimate estimate;
    estimate.log_ratio = x;
    a.estimates.push_back(estimate);
  }
  const auto chance = chance_to_decide(a, 20, PairedOptions{});
  ASSERT_TRUE(chance);
  EXPECT_GT(*chance, 0.99);
  a.estimates.clear();  // the test's se alone: hopeless
  const auto test_se_alone = chance_to_decide(a, 20, PairedOptions{});
  ASSERT_TRUE(test_se_alone);
  EXPECT_LT(*test_se_alone, kFutilityChance);
}

TEST(StopIfFutile, StopsOnlyAnUndecidedRowBelowTheChance) {
  SequentialRow row;
  row.analysis = analysis_of(5, 0.03, 0.01);
  row.decision.verdict = Verdict::inconclusive;
  EXPECT_FALSE(stop_if_futile(row, 80, PairedOptions{}));  // 80 pairs could still decide it
  EXPECT_FALSE(row.stopped);
  ASSERT_TRUE(row.chance_to_decide);
  EXPECT_GE(*row.chance_to_decide, kFutilityChance);
  EXPECT_TRUE(stop_if_futile(row, 12, PairedOptions{}));
  EXPECT_TRUE(row.stopped);
  EXPECT_TRUE(row.futile);
  EXPECT_EQ(row.reachable_pairs, 12u);
  EXPECT_NEAR(*row.chance_to_decide, 0.005547, 2e-5);
  EXPECT_EQ(row.decision.verdict, Verdict::inconclusive);  // stopping calls nothing

  SequentialRow decided;
  decided.analysis = analysis_of(5, 0.03, 0.01);
  decided.decision.verdict = Verdict::same;
  EXPECT_FALSE(stop_if_futile(decided, 12, PairedOptions{}));
  EXPECT_FALSE(decided.futile);
  SequentialRow unmeasured;
  unmeasured.decision.verdict = Verdict::inconclusive;
  EXPECT_FALSE(stop_if_futile(unmeasured, 12, PairedOptions{}));
}

TEST(ReachablePairs, ThePairsTheBudgetLeftBuysAtTheRowsOwnCost) {
  EXPECT_EQ(reachable_pairs(5, 20.0, 3.0, 60), std::optional<std::size_t>(11));   // 5 + floor(20 / 3)
  EXPECT_EQ(reachable_pairs(5, 20.0, 0.25, 60), std::optional<std::size_t>(60));  // 5 + 80, capped
  EXPECT_EQ(reachable_pairs(5, -1.0, 3.0, 60), std::optional<std::size_t>(5));    // the budget is spent
  EXPECT_FALSE(reachable_pairs(5, 20.0, 0.0, 60));
  EXPECT_FALSE(reachable_pairs(5, 20.0, std::nan(""), 60));
}

}  // namespace
}  // namespace gbx

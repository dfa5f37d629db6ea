// stats/sequential.h: the spending functions and boundaries against published values, by Monte Carlo
// on Brownian paths, the looks, the planner, and the rule's error rates on normal data (seeded).
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stats/sequential.h"

namespace gbx {
namespace {

// The design these tests were written for: the signed rank across pairs (the library's default is gbx
// ab's weighted sign flip, whose exact enumeration would make the simulations below minutes long).
SequentialDesign signed_rank_design() {
  SequentialDesign design;
  design.options.test = PairTest::signed_rank;
  return design;
}

std::vector<double> equal_looks(int m) {
  std::vector<double> fractions;
  for (int j = 1; j <= m; ++j) fractions.push_back(static_cast<double>(j) / m);
  return fractions;
}

void expect_boundaries(const std::vector<double>& fractions, SpendingFunction spending,
                       const std::vector<double>& published) {
  const auto boundaries = spending_boundaries(fractions, 0.025, spending);
  ASSERT_TRUE(boundaries);
  ASSERT_EQ(boundaries->size(), published.size());
  for (std::size_t j = 0; j < published.size(); ++j) EXPECT_NEAR((*boundaries)[j], published[j], 2e-4) << j;
}

TEST(SpentAlpha, ByHand) {
  EXPECT_NEAR(spent_alpha(SpendingFunction::obrien_fleming, 1.0, 0.025), 0.025, 1e-12);
  // 2 (1 - Phi(2.241403 / sqrt(0.25))) = 2 (1 - Phi(4.482807)) = 7.367e-6.
  EXPECT_NEAR(spent_alpha(SpendingFunction::obrien_fleming, 0.25, 0.025), 7.367e-6, 2e-9);
  EXPECT_NEAR(spent_alpha(SpendingFunction::pocock, 1.0, 0.025), 0.025, 1e-12);
  // 0.025 ln(1 + (e - 1) / 2) = 0.025 ln(1.859141) = 0.0155029.
  EXPECT_NEAR(spent_alpha(SpendingFunction::pocock, 0.5, 0.025), 0.0155029, 1e-7);
  EXPECT_EQ(spent_alpha(SpendingFunction::pocock, 0.0, 0.025), 0.0);
}

// Lan-DeMets bounds for equally spaced looks, one-sided 0.025 (two-sided 0.05), as tabulated by
// Jennison & Turnbull (2000) and printed by R's gsDesign (sfLDOF, sfLDPocock).
TEST(SpendingBoundaries, OBrienFlemingTypeMatchesPublishedValues) {
  expect_boundaries(equal_looks(3), SpendingFunction::obrien_fleming, {3.7103, 2.5114, 1.9930});
  expect_boundaries(equal_looks(4), SpendingFunction::obrien_fleming, {4.3326, 2.9631, 2.3590, 2.0141});
  expect_boundaries(equal_looks(5), SpendingFunction::obrien_fleming, {4.8769, 3.3569, 2.6803, 2.2898, 2.0310});
}

TEST(SpendingBoundaries, PocockTypeMatchesPublishedValues) {
  expect_boundaries(equal_looks(5), SpendingFunction::pocock, {2.4380, 2.4268, 2.4101, 2.3966, 2.3859});
}

TEST(SpendingBoundaries, OneLookIsTheFixedSampleBoundary) {
  expect_boundaries({1.0}, SpendingFunction::obrien_fleming, {1.959964});
  expect_boundaries({1.0}, SpendingFunction::pocock, {1.959964});
}

// Brownian paths at the looks 0.25, 0.5, 1: the share first crossing at each look is what the spending
// function spends there.
TEST(SpendingBoundaries, MonteCarloCrossingRatesMatchTheSpending) {
  const std::vector<double> fractions = {0.25, 0.5, 1.0};
  for (SpendingFunction spending : {SpendingFunction::obrien_fleming, SpendingFunction::pocock}) {
    const auto c = spending_boundaries(fractions, 0.025, spending);
    ASSERT_TRUE(c);
    std::mt19937_64 engine(2026);
    std::normal_distribution<double> normal(0.0, 1.0);
    constexpr int kPaths = 400000;
    std::vector<double> crossed(3, 0.0);
    for (int path = 0; path < kPaths; ++path) {
      double s = 0.0;
      double t = 0.0;
      for (std::size_t j = 0; j < 3; ++j) {
        s += std::sqrt(fractions[j] - t) * normal(engine);
        t = fractions[j];
        if (s / std::sqrt(t) >= (*c)[j]) {
          crossed[j] += 1.0;
          break;
        }
      }
    }
    double previous = 0.0;
    for (std::size_t j = 0; j < 3; ++j) {
      const double expected = spent_alpha(spending, fractions[j], 0.025) - previous;
      previous += expected;
      const double sd = std::sqrt(expected * (1.0 - expected) / kPaths);
      EXPECT_NEAR(crossed[j] / kPaths, expected, 4.0 * sd + 1e-6) << to_string(spending) << " look " << j;
    }
  }
}

// A run whose maximum grew from 20 to 40 pairs after the look at 10: the looks are at 5, 10 and 40
// pairs (Brownian times 0.125, 0.25, 1) but spend as planned, alpha(0.25), alpha(0.5), then the rest
// (Pocock-type, which spends enough early for the looks' correlation to matter).
// Monte Carlo on those times: each look's first-crossing share is what it spends.
TEST(SpendingBoundaries, MonteCarloWhenTheMaximumGrew) {
  const std::vector<double> information = {5, 10, 40};
  const std::vector<double> fractions = {0.25, 0.5, 1.0};
  const auto c = spending_boundaries(information, fractions, 0.025, SpendingFunction::pocock);
  ASSERT_TRUE(c);
  std::mt19937_64 engine(99);
  std::normal_distribution<double> normal(0.0, 1.0);
  constexpr int kPaths = 400000;
  std::vector<double> crossed(3, 0.0);
  for (int path = 0; path < kPaths; ++path) {
    double s = 0.0;
    double t = 0.0;
    for (std::size_t j = 0; j < 3; ++j) {
      const double time = information[j] / information.back();
      s += std::sqrt(time - t) * normal(engine);
      t = time;
      if (s / std::sqrt(t) >= (*c)[j]) {
        crossed[j] += 1.0;
        break;
      }
    }
  }
  const double expected =
      spent_alpha(SpendingFunction::pocock, 1.0, 0.025) - spent_alpha(SpendingFunction::pocock, 0.5, 0.025);
  EXPECT_NEAR(crossed[2] / kPaths, expected, 4.0 * std::sqrt(expected / kPaths));
}

TEST(SpendingBoundaries, InformationApartFromFractions) {
  const auto same = spending_boundaries({5, 10, 20}, {0.25, 0.5, 1.0}, 0.025, SpendingFunction::obrien_fleming);
  const auto plain = spending_boundaries({0.25, 0.5, 1.0}, 0.025, SpendingFunction::obrien_fleming);
  ASSERT_TRUE(same && plain);
  for (std::size_t j = 0; j < 3; ++j) EXPECT_NEAR((*same)[j], (*plain)[j], 1e-9);
  // A look that spends nothing (its fraction repeats) gets the stand-in for no boundary.
  const auto none = spending_boundaries({5, 10, 20}, {0.25, 0.5, 0.5}, 0.025, SpendingFunction::obrien_fleming);
  ASSERT_TRUE(none);
  EXPECT_GE((*none)[2], 39.0);
  EXPECT_FALSE(spending_boundaries({0.5, 0.25}, 0.025, SpendingFunction::pocock));
  EXPECT_FALSE(spending_boundaries({0.5, 1.5}, 0.025, SpendingFunction::pocock));
  EXPECT_FALSE(spending_boundaries({1.0}, 0.6, SpendingFunction::pocock));
  EXPECT_FALSE(spending_boundaries({5, 5}, {0.5, 1.0}, 0.025, SpendingFunction::pocock));
}

TEST(TCriticalFor, SameTailAsZ) {
  EXPECT_NEAR(t_critical_for(1.644854, 11), 1.812461, 1e-5);  // t(0.95, 10)
  EXPECT_NEAR(t_critical_for(1.959964, 4), 3.182446, 1e-5);   // t(0.975, 3)
  EXPECT_TRUE(std::isfinite(t_critical_for(40.0, 5)));
  // A look that spends nothing, at any number of pairs: a finite multiplier too large to decide anything
  // (Boost's double-precision quantile overflowed here from 4 pairs on, and a gbx ab run died of it).
  // P(Z > 30) is about 5e-198.
  for (std::size_t pairs = 2; pairs <= 1000; ++pairs) {
    const double t = t_critical_for(40.0, pairs);
    ASSERT_TRUE(std::isfinite(t)) << pairs;
    EXPECT_GT(t, 30.0) << pairs;
  }
}

TEST(LookSchedule, DoublesFromFive) {
  EXPECT_EQ(look_schedule(20), (std::vector<std::size_t>{5, 10, 20}));
  EXPECT_EQ(look_schedule(44), (std::vector<std::size_t>{5, 10, 20, 40, 44}));
  EXPECT_EQ(look_schedule(5), (std::vector<std::size_t>{5}));
  EXPECT_EQ(look_schedule(3), (std::vector<std::size_t>{3}));
  EXPECT_TRUE(look_schedule(0).empty());
}

TEST(PlanPaired, ByHand) {
  // sigma_w^2 = 4e-6, no block-to-block variance: blocks as long as allowed, 0.05 s / 1 ms = 50 samples.
  // Block pair: variance (pi/2) 4e-6 2/50 = 2.513e-7, cost 2 (0.002 + 0.05) = 0.104 s; pair variance
  // 1e-4, cost 0.1 s: B* = sqrt((pi/2) 2.513e-7 0.1 / (1e-4 0.104)) = 0.06, so 2 (the least); K =
  // floor(10 / (0.1 + 2 * 0.104)) = 32.
  PairedVariance variance;
  variance.within_block = 4e-6;
  variance.between_blocks = 0.0;
  variance.between_pairs = 1e-4;
  const auto plan = plan_paired(variance, PairedCosts{0.001, 0.002, 0.1}, 10.0);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->samples_per_block, 50u);
  EXPECT_EQ(plan->block_pairs_per_pair, 2u);
  EXPECT_EQ(plan->pairs, 32u);
  EXPECT_EQ(plan->looks, (std::vector<std::size_t>{5, 10, 20, 32}));
  EXPECT_NEAR(plan->seconds_per_pair, 0.308, 1e-9);
  EXPECT_TRUE(plan->fits_budget);
  ASSERT_TRUE(plan->expected_mde);
  EXPECT_GT(*plan->expected_mde, 0.005);
  EXPECT_LT(*plan->expected_mde, 0.02);
}

// 0.2% within a block, 1% between adjacent block pairs and almost nothing between pairs.
PairedVariance noisy_block_pairs() {
  PairedVariance variance;
  variance.within_block = 4e-6;
  variance.between_blocks = 1e-4;
  variance.between_pairs = 1e-6;
  return variance;
}

TEST(PlanPaired, NoisyBlocksGetMoreBlockPairsAndABudgetTooSmallSaysSo) {
  const PairedVariance variance = noisy_block_pairs();
  const auto plan = plan_paired(variance, PairedCosts{0.001, 0.002, 0.5}, 60.0);
  ASSERT_TRUE(plan);
  EXPECT_GT(plan->block_pairs_per_pair, 2u);
  EXPECT_LE(plan->total_seconds, 60.0);
  const auto tiny = plan_paired(variance, PairedCosts{0.001, 0.002, 0.5}, 0.5);
  ASSERT_TRUE(tiny);
  EXPECT_FALSE(tiny->fits_budget);
  EXPECT_FALSE(plan_paired(variance, PairedCosts{0.0, 0.002, 0.5}, 60.0));
  EXPECT_FALSE(plan_paired(variance, PairedCosts{0.001, 0.002, 0.5}, 0.0));
}

TEST(PlanPaired, APlanMadeAgainLateLowersItsBlockPairsOnlyForOneMorePair) {
  const PairedVariance variance = noisy_block_pairs();
  // n* = sqrt((pi/2) 2 4e-6 0.002 / (1e-4 0.001)) = 0.5, so 1; a block pair costs 2 (0.002 + 0.001) =
  // 0.006 s, and 64 of them (the most) 0.5 + 64 0.006 = 0.884 s a pair. 1.1 s affords one such pair: a
  // fresh plan needs 2 pairs, which B <= 8 gives (0.548 s), and the most of those block pairs is the
  // least MDE; after 10 pairs one more is enough, so any B up to 64 leaves 11 pairs, and the pair sd
  // sqrt(1e-6 + (pi/2) 1.126e-4 / B) is within 2% of its least (B = 64) from B = 61 on.
  const PairedCosts costs{0.001, 0.002, 0.5};
  const auto fresh = plan_paired(variance, costs, 1.1);
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->samples_per_block, 1u);
  EXPECT_EQ(fresh->pairs, 2u);
  EXPECT_EQ(fresh->block_pairs_per_pair, 8u);
  const auto late = plan_paired(variance, costs, 1.1, SequentialDesign{}, 10);
  ASSERT_TRUE(late);
  EXPECT_EQ(late->pairs, 11u);
  EXPECT_EQ(late->block_pairs_per_pair, 61u);
  EXPECT_TRUE(late->fits_budget);
  const auto none_fits = plan_paired(variance, costs, 0.4, SequentialDesign{}, 10);
  ASSERT_TRUE(none_fits);
  EXPECT_EQ(none_fits->block_pairs_per_pair, 2u);  // not even one more pair: the least
  EXPECT_EQ(none_fits->pairs, 10u);
  EXPECT_FALSE(none_fits->fits_budget);
}

TEST(PlanPaired, AGivenSamplesPerBlockIsKeptAndTheRestPlannedAroundIt) {
  const PairedVariance variance = noisy_block_pairs();
  const PairedCosts costs{0.001, 0.002, 0.5};
  // The planner's own n here is 1 (the test above): given 1, the plan is the planner's.
  const auto own = plan_paired(variance, costs, 60.0);
  const auto given_own = plan_paired(variance, costs, 60.0, SequentialDesign{}, 0, 1);
  ASSERT_TRUE(own && given_own);
  EXPECT_EQ(given_own->samples_per_block, own->samples_per_block);
  EXPECT_EQ(given_own->block_pairs_per_pair, own->block_pairs_per_pair);
  EXPECT_EQ(given_own->pairs, own->pairs);
  // Given 5, a block pair costs 2 (0.002 + 5 0.001) = 0.014 s, and a pair 0.5 + 0.014 B.
  const auto five = plan_paired(variance, costs, 60.0, SequentialDesign{}, 0, 5);
  ASSERT_TRUE(five);
  EXPECT_EQ(five->samples_per_block, 5u);
  EXPECT_NEAR(five->seconds_per_pair, 0.5 + 0.014 * static_cast<double>(five->block_pairs_per_pair), 1e-12);
  EXPECT_FALSE(plan_paired(variance, costs, 60.0, SequentialDesign{}, 0, 0));
}

TEST(PlanPaired, WhereFewPairsFitItTradesBlockPairsForPairs) {
  // A 64 MiB bandwidth row: blocks of one 7 ms sample, block pairs 7.5% apart (5.6e-3), pairs 0.6%
  // (3.6e-5), a block's warm-up and fixed cost 12 ms, a pair's setup 2.4 s. n = 1; a block pair costs
  // 2 (0.012 + 0.007) = 0.038 s. Kalibera & Jones's B* = sqrt((pi/2) 5.6e-3 2.4 / (3.6e-5 0.038)) = 124.
  // An 8 s share affords 3 pairs up to B = 7 (2.4 + 7 0.038 = 2.67 s) and 2 up to B = 42; the MDE's
  // factor (t_{K-1,0.975} + t_{K-1,0.9}) sqrt(3.6e-5 + (pi/2) 5.6e-3 / B) / sqrt(K) is (4.303 + 1.886)
  // 0.0360 / sqrt(3) = 0.128 at B = 7 (0.138 at 6) and (12.706 + 3.078) 0.0157 / sqrt(2) = 0.175 at
  // B = 42: 3 pairs of 7.
  PairedVariance variance;
  variance.within_block = 0.0;
  variance.between_blocks = 5.6e-3;
  variance.between_pairs = 3.6e-5;
  const PairedCosts costs{0.007, 0.012, 2.4};
  const auto few = plan_paired(variance, costs, 8.0);
  ASSERT_TRUE(few);
  EXPECT_EQ(few->samples_per_block, 1u);
  EXPECT_EQ(few->block_pairs_per_pair, 7u);
  EXPECT_EQ(few->pairs, 3u);
  // 60 s afford 18 pairs of 20 block pairs (3.16 s each), 15 of 40, 13 of 57 (4.57 s) and 12 of 64:
  // the factor is 0.0177, 0.0144, 0.0135 and 0.0136, so B goes to the long end, short of the most.
  const auto many = plan_paired(variance, costs, 60.0);
  ASSERT_TRUE(many);
  EXPECT_GE(many->block_pairs_per_pair, 50u);
  EXPECT_LE(many->block_pairs_per_pair, 57u);
  EXPECT_EQ(many->pairs, 13u);
}

TEST(PlanPaired, KeepsTheSixPairsTheSignedRankNeedsWhereTheBudgetAffordsThem) {
  // As above, but no spread between pairs measured and a 20 s share: K(B) = floor(20 / (2.4 + 0.038 B))
  // is 6 up to B = 24 and 5 up to 42. Student's t alone would take 5 pairs of 42 ((2.776 + 1.533)
  // 0.0938 / sqrt(42 5) = 0.0279 against (2.571 + 1.476) 0.0938 / sqrt(24 6) = 0.0316), and with 5 pairs
  // the signed rank's least p is 1/16: nothing could be called. 6 pairs, B as large as leaves them.
  PairedVariance variance;
  variance.within_block = 0.0;
  variance.between_blocks = 5.6e-3;
  variance.between_pairs = 0.0;
  const auto plan = plan_paired(variance, PairedCosts{0.007, 0.012, 2.4}, 20.0, signed_rank_design());
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->pairs, kPlanLeastPairs);
  EXPECT_EQ(plan->block_pairs_per_pair, 24u);
}

TEST(PlanPaired, KeepsThePairsAnExactTestNeedsForOneChangeAmongTheBenchmarks) {
  // As above (K(B) = floor(20 / (2.4 + 0.038 B)): 8 at B = 2, 6 up to B = 24), the signed rank across
  // 4 benchmarks: one changed row alone needs 2^(1-K) <= 0.05 / 4, 8 pairs, which only B = 2 leaves.
  PairedVariance variance;
  variance.within_block = 0.0;
  variance.between_blocks = 5.6e-3;
  variance.between_pairs = 0.0;
  // {floor, pairs, block pairs} of the plan for `benchmarks` rows compared with `test`.
  const auto plan_for = [&](std::size_t benchmarks, PairTest test) {
    SequentialDesign design;
    design.benchmarks = benchmarks;
    design.options.test = test;
    const auto plan = plan_paired(variance, PairedCosts{0.007, 0.012, 2.4}, 20.0, design);
    return plan ? std::vector<std::size_t>{plan_least_pairs(design), plan->pairs, plan->block_pairs_per_pair}
                : std::vector<std::size_t>{};
  };
  EXPECT_EQ(plan_for(4, PairTest::signed_rank), (std::vector<std::size_t>{8, 8, 2}));
  // Twelve need 9, which no B affords: the plan keeps the 8 that B = 2 does, not Student's t's 5 of 42.
  EXPECT_EQ(plan_for(12, PairTest::weighted), (std::vector<std::size_t>{9, 8, 2}));
  // Student's t has no least p: the floor stays kPlanLeastPairs, and the plan is the one above.
  EXPECT_EQ(plan_for(12, PairTest::t), (std::vector<std::size_t>{kPlanLeastPairs, 6, 24}));
}

// One benchmark's pairs with log ratios drawn N(log ratio, sd^2).
struct NormalPairs {
  std::mt19937_64 engine;
  std::normal_distribution<double> noise;
  WorkerPairBlocks next() {
    const double c = std::exp(noise(engine));
    return WorkerPairBlocks{{BlockPair{{1.0, 1.0, 1.0}, {c, c, c}, false, 0.0}}};
  }
};

// The share of runs that end with `verdict` under the sequential rule, looks 5/10/20.
double share_of(Verdict verdict, double ratio, const SequentialDesign& design, int runs, std::uint64_t seed) {
  NormalPairs source{std::mt19937_64(seed), std::normal_distribution<double>(std::log(ratio), 0.014)};
  int count = 0;
  for (int run = 0; run < runs; ++run) {
    std::vector<std::vector<WorkerPairBlocks>> pairs(1);
    std::vector<SequentialRow> rows;
    for (std::size_t k = 1; k <= design.looks.back(); ++k) {
      pairs[0].push_back(source.next());
      if (k != 5 && k != 10 && k != 20) continue;
      sequential_look(pairs, rows, design, k == design.looks.back());
      if (rows[0].stopped) break;
    }
    EXPECT_TRUE(rows[0].stopped);
    if (rows[0].decision.verdict == verdict) ++count;
  }
  return static_cast<double>(count) / runs;
}

TEST(SequentialLook, ErrorRatesStayAtTheirLevels) {
  // No band, and a margin nothing can meet: the difference test alone.
  SequentialDesign difference_only = signed_rank_design();
  difference_only.options.noise_band = 0.0;
  difference_only.options.equivalence_margin = 1e-9;
  const double false_slower = share_of(Verdict::slower, 1.0, difference_only, 2000, 1);
  const double false_faster = share_of(Verdict::faster, 1.0, difference_only, 2000, 2);
  EXPECT_LE(false_slower + false_faster, 0.07);   // 5% two-sided
  EXPECT_GE(false_slower + false_faster, 0.025);  // and not an empty test

  // A band nothing can clear: the TOST alone, at the margin's edge.
  SequentialDesign equivalence_only = signed_rank_design();
  equivalence_only.options.noise_band = 0.99;
  const double false_same = share_of(Verdict::same, 1.02, equivalence_only, 2000, 3);
  EXPECT_LE(false_same, 0.07);
  EXPECT_GE(false_same, 0.02);
  // Power: a true ratio of 1 is called same, and 1.03 slower, nearly always by 20 pairs.
  EXPECT_GE(share_of(Verdict::same, 1.0, signed_rank_design(), 500, 4), 0.9);
  EXPECT_GE(share_of(Verdict::slower, 1.03, signed_rank_design(), 500, 5), 0.9);
}

TEST(SequentialLook, StopsWhenDecidedAndKeepsStoppedRows) {
  const SequentialDesign design = signed_rank_design();
  std::vector<std::vector<WorkerPairBlocks>> pairs(3);
  NormalPairs tight{std::mt19937_64(7), std::normal_distribution<double>(0.0, 0.001)};
  NormalPairs loose{std::mt19937_64(8), std::normal_distribution<double>(0.0, 0.2)};
  for (int k = 0; k < 10; ++k) {
    pairs[0].push_back(tight.next());
    pairs[1].push_back(loose.next());
  }  // pairs[2]: nothing measured
  std::vector<SequentialRow> rows;
  sequential_look(pairs, rows, design, false);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[0].stopped);
  EXPECT_EQ(rows[0].decision.verdict, Verdict::same);
  EXPECT_EQ(rows[0].fractions, (std::vector<double>{0.5}));
  EXPECT_FALSE(rows[1].stopped);
  EXPECT_EQ(rows[1].decision.verdict, Verdict::inconclusive);
  EXPECT_GT(rows[1].difference_critical, 2.262157);  // wider than the fixed-sample t(0.975, 9)
  EXPECT_EQ(rows[2].decision.verdict, Verdict::insufficient);
  const SequentialRow kept = rows[0];
  for (int k = 0; k < 10; ++k) pairs[1].push_back(loose.next());
  sequential_look(pairs, rows, design, true);
  EXPECT_EQ(rows[0].fractions, kept.fractions);  // untouched
  EXPECT_TRUE(rows[1].stopped);
  EXPECT_EQ(rows[1].fractions, (std::vector<double>{0.5, 1.0}));
  EXPECT_EQ(rows[1].decision.verdict, Verdict::inconclusive);
  ASSERT_TRUE(rows[1].mde);
  EXPECT_GT(*rows[1].mde, 0.02);
  EXPECT_TRUE(rows[2].stopped);
}

}  // namespace
}  // namespace gbx

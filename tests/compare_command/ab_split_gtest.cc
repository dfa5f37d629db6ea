// gbx ab's split of a row's next worker pairs (ab_sides::replan): planned from the row's measured
// variance and its measured costs, with the samples per block kept within the worker's limits, the
// block pairs fixed where --blocks fixed them, and nothing changed before there is anything measured;
// after one pair, with the assumed spread between pairs; kept where the row's share no longer fits a
// pair. Pair 0's split, from the pilots (ab_sides::plan_first_pairs). And the costs it plans with
// (ab_sides::count_block_time). The library's default test, which these plans take, is gbx ab's.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ab/options.h"
#include "ab/paired.h"
#include "ab/sides.h"

namespace {

using gbx::tools::ab_sides::count_block_time;
using gbx::tools::ab_sides::kMaxBlockSamples;
using gbx::tools::ab_sides::kMinBlockSamples;
using gbx::tools::ab_sides::pair_seconds;
using gbx::tools::ab_sides::plan_first_pairs;
using gbx::tools::ab_sides::replan;
using gbx::tools::ab_sides::Row;

// A row after a look: 1 ms samples, 5 held blocks of 1 warm-up run and 20 samples that took 26 ms each
// (so 5 ms beyond their runs), and a replicated analysis (row.sequential.analysis) with the given
// variance components.
Row measured_row(double within, double between_blocks, double between_pairs) {
  Row row;
  row.samples = 20;
  row.block_pairs = 2;
  row.held_warmup_runs = 1;
  row.sample_seconds = 0.001;
  row.blocks_timed = 5;
  row.block_runs_timed = 5 * 21;
  row.blocks_wall_seconds = 5 * 0.026;
  row.splits.push_back({0, row.samples, row.block_pairs});
  gbx::PairedAnalysis analysis;
  analysis.replicated = true;
  analysis.pairs = 5;
  analysis.variance.within_block = within;
  analysis.variance.between_blocks = between_blocks;
  analysis.variance.between_pairs = between_pairs;
  row.sequential.analysis = analysis;
  return row;
}

TEST(AbSplit, ByHandFromTheMeasuredComponentsAndCosts) {
  // c_s = 1 ms, c_warm = 5 ms fixed + 1 warm-up run = 6 ms. n* = sqrt((pi/2) 2 4e-6 0.006 / (1e-6 0.001))
  // = 8.68, so 9. Block pair: v = 1e-6 + (pi/2) 4e-6 2/9 = 2.396e-6, cost 2 (0.006 + 0.009) = 0.03 s;
  // pair start 0.5 s, between pairs 1e-6 (Kalibera & Jones's B* = sqrt((pi/2) 2.396e-6 0.5 / (1e-6
  // 0.03)) = 7.9). After 5 pairs the 10 s share affords 5 + floor(10 / (0.5 + 0.03 B)) pairs: 20 at B = 5,
  // 19 at 7, 18 at 8, 17 at 11; the MDE factor (t_{K-1,0.975} + t_{K-1,0.9}) sqrt(1e-6 + (pi/2) 2.396e-6 /
  // B) / sqrt(K) is 1.013e-3, 9.76e-4, 9.84e-4 and 9.71e-4 (the least), and B = 7 the fewest within 2%.
  Row row = measured_row(4e-6, 1e-6, 1e-6);
  ASSERT_TRUE(replan(row, *row.sequential.analysis, 0.5, 10.0, false, 5, gbx::SequentialDesign{}));
  EXPECT_EQ(row.samples, 9);
  EXPECT_EQ(row.block_pairs, 7);
  ASSERT_EQ(row.splits.size(), 2u);
  EXPECT_EQ(row.splits.back().from_pair, 5);
  EXPECT_EQ(row.splits.back().samples, row.samples);
  EXPECT_EQ(row.splits.back().block_pairs, row.block_pairs);
  EXPECT_NEAR(row.block_seconds, 0.006 + 9 * 0.001, 1e-12);
}

TEST(AbSplit, NoisyBlockPairsGetMoreOfThemUnlessBlocksAreFixed) {
  // 3% between adjacent block pairs and 0.3% between pairs: the block pairs are where the noise is.
  Row planned = measured_row(4e-6, 9e-4, 9e-6);
  ASSERT_TRUE(replan(planned, *planned.sequential.analysis, 0.5, 1000.0, false, 5, gbx::SequentialDesign{}));
  EXPECT_GT(planned.block_pairs, 2);
  EXPECT_LE(planned.block_pairs, static_cast<std::int64_t>(gbx::kMaxBlockPairsPerPair));
  Row fixed = measured_row(4e-6, 9e-4, 9e-6);
  replan(fixed, *fixed.sequential.analysis, 0.5, 1000.0, true, 5, gbx::SequentialDesign{});
  EXPECT_EQ(fixed.block_pairs, 2);
}

TEST(AbSplit, SamplesStayWithinTheWorkersLimits) {
  Row few = measured_row(1e-8, 1e-2, 1e-4);  // no noise within a block: the shortest block
  replan(few, *few.sequential.analysis, 0.5, 1000.0, false, 5, gbx::SequentialDesign{});
  EXPECT_EQ(few.samples, kMinBlockSamples);
  Row many = measured_row(1e-2, 0.0, 1e-4);  // no noise between block pairs: the longest block
  many.sample_seconds = 1e-6;
  many.blocks_wall_seconds = 5 * 0.005;
  replan(many, *many.sequential.analysis, 0.5, 1000.0, false, 5, gbx::SequentialDesign{});
  EXPECT_EQ(many.samples, kMaxBlockSamples);
}

TEST(AbSplit, NothingChangesBeforeAnAnalysedPairAndATimedBlock) {
  Row unanalysed = measured_row(4e-6, 9e-4, 9e-6);
  const gbx::PairedAnalysis none;  // no pair with an estimate
  EXPECT_FALSE(replan(unanalysed, none, 0.5, 1000.0, false, 5, gbx::SequentialDesign{}));
  Row untimed = measured_row(4e-6, 9e-4, 9e-6);
  untimed.blocks_timed = 0;
  EXPECT_FALSE(replan(untimed, *untimed.sequential.analysis, 0.5, 1000.0, false, 5, gbx::SequentialDesign{}));
  for (const Row* row : {&unanalysed, &untimed}) {
    EXPECT_EQ(row->samples, 20);
    EXPECT_EQ(row->block_pairs, 2);
    EXPECT_EQ(row->splits.size(), 1u);
  }
}

TEST(AbSplit, OnePairPlansWithTheAssumedSpreadBetweenPairs) {
  // After its first pair a row knows its blocks' noise but not its pairs': 3% between adjacent block
  // pairs, 0.2% within a block, and the assumed 1.4% between pairs (log variance 1.96e-4). c_warm =
  // 6 ms, c_s = 1 ms: n* = sqrt((pi/2) 2 4e-6 0.006 / (9e-4 0.001)) = 0.29, so 1; v_bp = 9e-4 + (pi/2)
  // 4e-6 2 = 9.126e-4, c_bp = 2 (0.006 + 0.001) = 0.014 s. The 10 s share affords 1 + floor(10 / (0.5 +
  // 0.014 B)) pairs in all: 16 at B = 11, 15 at 13, 14 at 16; the MDE factor (t_{K-1,0.975} +
  // t_{K-1,0.9}) sqrt(1.96e-4 + (pi/2) 9.126e-4 / B) / sqrt(K) is 0.01568 (the least), 0.01577 and
  // 0.01586 (16 is Kalibera & Jones's B*), and 0.01599 at B = 10: B = 11.
  Row row = measured_row(4e-6, 9e-4, 0.0);
  gbx::PairedAnalysis one = *row.sequential.analysis;
  one.pairs = 1;
  one.replicated = false;
  one.variance.between_pairs.reset();  // as analyze_pairs leaves it for one pair
  ASSERT_TRUE(replan(row, one, 0.5, 10.0, false, 1, gbx::SequentialDesign{}));
  EXPECT_EQ(row.samples, 1);
  EXPECT_EQ(row.block_pairs, 11);
  EXPECT_EQ(row.splits.back().from_pair, 1);
}

TEST(AbDesign, TheLibrarysDefaultTestIsTheTools) {
  // What --pair-test defaults to, what stats/paired.h defaults to, and what ab_design gives unasked.
  const auto tools = gbx::parse_pair_test(gbx::tools::AbOptions{}.pair_test);
  ASSERT_TRUE(tools);
  EXPECT_EQ(*tools, gbx::PairTest::weighted);
  EXPECT_EQ(gbx::PairedOptions{}.test, *tools);
  EXPECT_EQ(gbx::SequentialDesign{}.options.test, *tools);
  EXPECT_EQ(gbx::tools::ab_design(0.005, 0.02, 0.05, 20, 1).options.test, *tools);
}

TEST(AbSplit, WhereTheShareNoLongerFitsAPairTheSplitStaysOnceAnExactTestHasItsPairs) {
  // 0.1 s of budget against a 0.5 s pair start: not even one more pair of 2 block pairs fits.
  Row late = measured_row(4e-6, 9e-4, 9e-6);
  late.samples = 1;
  late.block_pairs = 30;
  late.splits = {{0, 1, 30}};
  EXPECT_FALSE(replan(late, *late.sequential.analysis, 0.5, 0.1, false, static_cast<std::int64_t>(gbx::kPlanLeastPairs),
                      gbx::SequentialDesign{}));
  EXPECT_EQ(late.block_pairs, 30);
  EXPECT_EQ(late.samples, 1);
  EXPECT_EQ(late.splits.size(), 1u);
  // Before the exact test (the default, weighted sign flip) has its pairs, the fewest block pairs still
  // buy the pairs it needs.
  Row early = late;
  EXPECT_TRUE(replan(early, *early.sequential.analysis, 0.5, 0.1, false,
                     static_cast<std::int64_t>(gbx::kPlanLeastPairs) - 1, gbx::SequentialDesign{}));
  EXPECT_EQ(early.block_pairs, 2);
}

TEST(AbBlockTime, HeldBlocksGiveTheFixedCostAndFirstBlocksTheSetup) {
  // 1 ms samples, 1 warm-up run and 20 samples a block; the pilot's setup 1.2 s.
  Row row;
  row.samples = 20;
  row.held_warmup_runs = 1;
  row.sample_seconds = 0.001;
  row.setup_seconds = 1.2;
  for (int i = 0; i < 5; ++i) count_block_time(row, false, 0.026);  // 5 ms beyond their 21 runs
  EXPECT_EQ(row.blocks_timed, 5);
  EXPECT_EQ(row.block_runs_timed, 5 * 21);
  EXPECT_NEAR(row.blocks_wall_seconds, 5 * 0.026, 1e-12);
  // A first block's cost beyond a held block's (5 ms + 21 runs): 0.5 s. One is not enough to replace
  // the pilot's figure; from two on, their median is the setup.
  count_block_time(row, true, 0.526);
  EXPECT_DOUBLE_EQ(row.setup_seconds, 1.2);
  count_block_time(row, true, 0.326);
  EXPECT_NEAR(row.setup_seconds, 0.4, 1e-9);
  count_block_time(row, true, 0.926);
  EXPECT_NEAR(row.setup_seconds, 0.5, 1e-9);
  EXPECT_EQ(row.blocks_timed, 5);  // first blocks are not held blocks
}

// A row as the pilot leaves it: 10 ms samples, blocks of 3 after 1 warm-up run, a setup of 0.4 s, and
// its pilot's noise within a block.
Row piloted_row(double within_block_spread) {
  Row row;
  row.samples = 3;
  row.block_pairs = 2;
  row.held_warmup_runs = 1;
  row.sample_seconds = 0.01;
  row.setup_seconds = 0.4;
  row.block_seconds = 4 * 0.01;
  row.pilot_within_block = within_block_spread;
  row.splits.push_back({0, row.samples, row.block_pairs});
  return row;
}

TEST(AbFirstPair, PlannedFromThePilotsNoiseWithinABlockWithItsSamplesPerBlockKept) {
  // 5% within a block (a 64 MiB triad's pilot) against the assumed 0.3% between block pairs and 1.4%
  // between pairs: a block pair's d has a variance of about (pi/2) 2.5e-3 2/3 = 2.6e-3, over ten times a
  // pair's, so pair 0 takes more block pairs than 2. A row whose pilot shows 0.1% keeps 2.
  std::vector<Row> rows = {piloted_row(0.05), piloted_row(0.001)};
  ASSERT_TRUE(plan_first_pairs(rows, 0.3, 60.0, gbx::SequentialDesign{}, 5));
  EXPECT_GT(rows[0].block_pairs, 2);
  EXPECT_LE(rows[0].block_pairs, static_cast<std::int64_t>(gbx::kMaxBlockPairsPerPair));
  EXPECT_EQ(rows[0].samples, 3);
  ASSERT_EQ(rows[0].splits.size(), 1u);
  EXPECT_EQ(rows[0].splits[0].from_pair, 0);
  EXPECT_EQ(rows[0].splits[0].samples, 3);
  EXPECT_EQ(rows[0].splits[0].block_pairs, rows[0].block_pairs);
  EXPECT_EQ(rows[1].block_pairs, 2);
  EXPECT_GE(std::floor(60.0 / pair_seconds(rows, 0.3)), 5.0);
}

TEST(AbFirstPair, WhereTheSplitsWouldLeaveTooFewPairsEveryRowKeepsThePilots) {
  // Alone, the noisy row's plan for 5 s still fits; with 20 such rows the budget's first look is out of
  // reach unless every row keeps its 2 block pairs.
  std::vector<Row> rows(20, piloted_row(0.05));
  const double budget = 5.0 * pair_seconds(rows, 0.3) + 0.1;  // 5 pairs of the pilots' splits
  EXPECT_FALSE(plan_first_pairs(rows, 0.3, budget, gbx::SequentialDesign{}, 5));
  for (const Row& row : rows) {
    EXPECT_EQ(row.block_pairs, 2);
    EXPECT_EQ(row.splits.size(), 1u);
  }
}

TEST(AbFirstPair, PairSecondsAddTheStartUpAndEachActiveRowsSetupAndBlockPairsOnBothSides) {
  std::vector<Row> rows = {piloted_row(0.01), piloted_row(0.01)};
  rows[0].block_pairs = 5;
  rows[1].active = false;
  EXPECT_NEAR(pair_seconds(rows, 0.3), 0.3 + 2.0 * (0.4 + 5 * 0.04), 1e-12);
}

}  // namespace

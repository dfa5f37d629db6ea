// stats/paired.h against values worked out by hand (t quantiles from the tables: t(0.975, 3) = 3.182446,
// t(0.95, 3) = 2.353363, t(0.975, 9) = 2.262157, t(0.90, 9) = 1.383029).
#include <cmath>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "stats/paired.h"

namespace gbx {
namespace {

// A block pair whose medians are exactly 1 and e^d: d_j = d.
BlockPair block_pair(double d, bool candidate_first) {
  const double c = std::exp(d);
  return BlockPair{{1.0, 1.0, 1.0}, {c, c, c}, candidate_first, 0.0};
}

// K pairs, pair k with the one log ratio x[k] (two block pairs, one of each order).
std::vector<WorkerPairBlocks> pairs_of(const std::vector<double>& x) {
  std::vector<WorkerPairBlocks> pairs;
  for (double value : x) pairs.push_back(WorkerPairBlocks{{block_pair(value, true), block_pair(value, false)}});
  return pairs;
}

PairedOptions with_test(PairTest test) {
  PairedOptions options;
  options.test = test;
  return options;
}
PairedOptions t_test() { return with_test(PairTest::t); }
PairedOptions signed_rank_test() { return with_test(PairTest::signed_rank); }

RatioInterval interval(double lower, double upper) {
  RatioInterval result;
  result.ratio = std::sqrt(lower * upper);
  result.lower = lower;
  result.upper = upper;
  return result;
}

TEST(PairBlocks, ConsecutiveBlocksOfBothSidesMakeAPair) {
  const auto side = [](PairedSide s, double x, double at) { return SideBlock{s, {x}, at}; };
  const std::vector<SideBlock> blocks = {side(PairedSide::base, 1, 0.0),      side(PairedSide::candidate, 2, 0.1),
                                         side(PairedSide::candidate, 3, 0.2), side(PairedSide::base, 4, 0.3),
                                         side(PairedSide::base, 5, 0.4),      side(PairedSide::base, 6, 0.5),
                                         side(PairedSide::candidate, 7, 0.6)};  // (5, 6) is not a pair; 7 is left alone
  const WorkerPairBlocks pair = pair_blocks(blocks);
  ASSERT_EQ(pair.block_pairs.size(), 2u);
  EXPECT_FALSE(pair.block_pairs[0].candidate_first);
  EXPECT_EQ(pair.block_pairs[0].base, std::vector<double>{1});
  EXPECT_EQ(pair.block_pairs[0].candidate, std::vector<double>{2});
  EXPECT_TRUE(pair.block_pairs[1].candidate_first);
  EXPECT_EQ(pair.block_pairs[1].base, std::vector<double>{4});
  EXPECT_EQ(pair.block_pairs[1].candidate, std::vector<double>{3});
  EXPECT_DOUBLE_EQ(pair.block_pairs[1].start_seconds, 0.2);
}

TEST(EstimatePair, BalancesTheTwoOrders) {
  // Candidate first: 0.03, 0.03; base first: 0.01. The median of all three is 0.03; each order's
  // median averaged, (0.03 + 0.01) / 2 = 0.02, cancels an order effect of +/-0.01.
  const WorkerPairBlocks pair{{block_pair(0.03, true), block_pair(0.01, false), block_pair(0.03, true)}};
  const auto estimate = estimate_pair(pair);
  ASSERT_TRUE(estimate);
  EXPECT_NEAR(estimate->log_ratio, 0.02, 1e-12);
  EXPECT_EQ(estimate->block_pairs, 3u);
  EXPECT_EQ(estimate->candidate_first, 2u);
  EXPECT_EQ(estimate->base_samples, 9u);
  // MAD of {0.03, 0.01, 0.03} about 0.03 is 0: the spread of the block ratios is 0.
  EXPECT_NEAR(estimate->block_log_ratio_spread, 0.0, 1e-12);
  // One order only: the median of the block ratios.
  const auto one_order =
      estimate_pair(WorkerPairBlocks{{block_pair(0.01, true), block_pair(0.05, true), block_pair(0.02, true)}});
  ASSERT_TRUE(one_order);
  EXPECT_NEAR(one_order->log_ratio, 0.02, 1e-12);
}

TEST(EstimatePair, SkipsUnusableBlocks) {
  WorkerPairBlocks pair{{block_pair(0.02, true), BlockPair{{1.0, -1.0}, {1.0}, false, 0.0}, BlockPair{{}, {1.0}}}};
  const auto estimate = estimate_pair(pair);
  ASSERT_TRUE(estimate);
  EXPECT_EQ(estimate->block_pairs, 1u);
  EXPECT_FALSE(estimate_pair(WorkerPairBlocks{{BlockPair{{std::nan("")}, {1.0}}}}));
  EXPECT_FALSE(estimate_pair(WorkerPairBlocks{}));
}

TEST(MeanInterval, StudentTByHand) {
  // mean 0.025, sd sqrt(2 (0.015^2 + 0.005^2) / 3) = 0.0129099, se 0.00645497.
  const auto bounds = mean_interval({0.01, 0.02, 0.03, 0.04}, 3.182446);
  ASSERT_TRUE(bounds);
  EXPECT_NEAR(bounds->lower, 0.025 - 0.0205426, 1e-6);
  EXPECT_NEAR(bounds->upper, 0.025 + 0.0205426, 1e-6);
  EXPECT_FALSE(mean_interval({0.01}, 3.0));
}

TEST(AnalyzePairs, IntervalsAndTestsOnFourPairs) {
  const auto analysis = analyze_pairs(pairs_of({0.01, 0.02, 0.03, 0.04}), t_test());
  ASSERT_TRUE(analysis);
  EXPECT_EQ(analysis->pairs, 4u);
  EXPECT_TRUE(analysis->replicated);
  EXPECT_NEAR(analysis->ratio, std::exp(0.025), 1e-12);
  ASSERT_TRUE(analysis->difference_interval && analysis->equivalence_interval);
  EXPECT_NEAR(std::log(analysis->difference_interval->lower), 0.0044574, 1e-6);
  EXPECT_NEAR(std::log(analysis->difference_interval->upper), 0.0455426, 1e-6);
  // 90%: half-width 2.353363 * 0.00645497 = 0.0151907.
  EXPECT_NEAR(std::log(analysis->equivalence_interval->lower), 0.0098093, 1e-6);
  EXPECT_NEAR(std::log(analysis->equivalence_interval->upper), 0.0401907, 1e-6);
  EXPECT_DOUBLE_EQ(analysis->equivalence_interval->level, 0.9);
  // All four positive: 2 of the 16 sign vectors are as extreme.
  ASSERT_TRUE(analysis->p_sign_flip);
  EXPECT_DOUBLE_EQ(*analysis->p_sign_flip, 0.125);
  EXPECT_DOUBLE_EQ(analysis->p_value, 0.125);
  EXPECT_EQ(analysis->test, "sign-flip-exact");
  // t = 0.025 / 0.00645497 = 3.87298 on 3 degrees of freedom: p = 0.0305.
  EXPECT_NEAR(analysis->p_t, 0.0305, 5e-4);
  ASSERT_TRUE(analysis->mde);
  EXPECT_GT(*analysis->mde, 0.0);
}

TEST(AnalyzePairs, BeyondTwelvePairsTheTestIsStudentT) {
  std::vector<double> x;
  for (int k = 0; k < 13; ++k) x.push_back(0.001 * k);
  const auto analysis = analyze_pairs(pairs_of(x), t_test());
  ASSERT_TRUE(analysis);
  EXPECT_FALSE(analysis->p_sign_flip);
  EXPECT_EQ(analysis->test, "paired-t");
  EXPECT_DOUBLE_EQ(analysis->p_value, analysis->p_t);
}

TEST(AnalyzePairs, SignedRankOnSixPairsByHand) {
  // Walsh averages of 0.01 .. 0.06: their median (the Hodges-Lehmann centre) 0.035.
  // 95%: 2^-6 <= 2.5% < 2^-5, so c = 1: the extremes. 90%: P(T+ <= 2) = 3/64 <= 5% < 5/64, so c = 3:
  // the 3rd smallest Walsh average (0.01, 0.015, 0.02) and the 3rd largest (0.05).
  const auto analysis = analyze_pairs(pairs_of({0.03, 0.01, 0.06, 0.02, 0.05, 0.04}), signed_rank_test());
  ASSERT_TRUE(analysis && analysis->difference_interval && analysis->equivalence_interval);
  EXPECT_TRUE(analysis->signed_rank);
  EXPECT_EQ(analysis->test, "signed-rank-exact");
  EXPECT_NEAR(analysis->ratio, std::exp(0.035), 1e-12);
  EXPECT_NEAR(std::log(analysis->difference_interval->lower), 0.01, 1e-12);
  EXPECT_NEAR(std::log(analysis->difference_interval->upper), 0.06, 1e-12);
  EXPECT_NEAR(std::log(analysis->equivalence_interval->lower), 0.02, 1e-12);
  EXPECT_NEAR(std::log(analysis->equivalence_interval->upper), 0.05, 1e-12);
  EXPECT_EQ(analysis->difference_interval->method, "signed-rank-hodges-lehmann");
  EXPECT_DOUBLE_EQ(analysis->p_value, 2.0 / 64.0);  // all six positive
  EXPECT_NEAR(analysis->mean_log_ratio, 0.035, 1e-12);
  ASSERT_TRUE(analysis->mde && analysis->se_log_ratio);
  // The se from the 95% interval: its half-width 0.025 over z(1 - 1/64) = 2.153875.
  EXPECT_NEAR(*analysis->se_log_ratio, 0.025 / 2.153875, 1e-6);
}

TEST(AnalyzePairs, SignedRankOnFourPairsCannotBoundYet) {
  // 2^-4 = 6.25% > 2.5%: the 95% interval is unbounded (clamped to e^-/+50), so no look stops; the se
  // comes from the widest bounded interval, the extremes at 1 - 2^-4: (0.04 - 0.01) / (2 z(0.9375)).
  const auto analysis = analyze_pairs(pairs_of({0.01, 0.02, 0.03, 0.04}), signed_rank_test());
  ASSERT_TRUE(analysis && analysis->difference_interval && analysis->se_log_ratio && analysis->mde);
  EXPECT_TRUE(analysis->signed_rank);
  EXPECT_DOUBLE_EQ(analysis->difference_interval->lower, std::exp(-50.0));
  EXPECT_DOUBLE_EQ(analysis->difference_interval->upper, std::exp(50.0));
  EXPECT_NEAR(*analysis->se_log_ratio, 0.03 / (2.0 * 1.534121), 1e-6);
}

TEST(AnalyzePairs, ASlowProcessDoesNotHideAChangeFromTheSignedRank) {
  // 1% slower on 14 pairs; in the 15th the base process ran 60% slower for all its blocks.
  std::vector<double> x = {0.010, 0.012, 0.008, 0.011, 0.009,
                           0.010, 0.013, 0.007, 0.010, 0.011,
                           0.009, 0.012, 0.008, 0.010, std::log(1.01 / 1.6)};
  // Each pair's block pairs read x_k + 0.15 and x_k - 0.15 (one of each order, so x_k is their mean):
  // the d_j spread by 0.3 about the row's centre, so its pooled bounds (3 of those spreads either side)
  // leave the slow pair's -0.61 and -0.31 alone, and the tests are compared on the x_k as they are.
  std::vector<WorkerPairBlocks> pairs;
  for (double value : x)
    pairs.push_back(WorkerPairBlocks{{block_pair(value + 0.15, true), block_pair(value - 0.15, false)}});
  const auto robust = analyze_pairs(pairs, signed_rank_test());
  const auto t = analyze_pairs(pairs, t_test());
  ASSERT_TRUE(robust && t);
  EXPECT_EQ(robust->estimates.back().winsorised, 0u);
  EXPECT_NEAR(robust->estimates.back().log_ratio, std::log(1.01 / 1.6), 1e-12);
  EXPECT_TRUE(robust->signed_rank);
  EXPECT_GT(robust->difference_interval->lower, 1.0 + kPairedNoiseBand);
  EXPECT_EQ(decide_paired(*robust, robust->p_value, signed_rank_test()).verdict, Verdict::slower);
  EXPECT_LT(t->difference_interval->lower, 1.0);  // the mean is dragged below 1 and the sd inflated
  EXPECT_EQ(decide_paired(*t, t->p_value, t_test()).verdict, Verdict::inconclusive);
}

// Pairs of two block pairs, one of each order, with the given d_j.
std::vector<WorkerPairBlocks> two_block_pairs_each(const std::vector<std::pair<double, double>>& d) {
  std::vector<WorkerPairBlocks> pairs;
  for (const auto& [first, second] : d) {
    pairs.push_back(WorkerPairBlocks{{block_pair(first, true), block_pair(second, false)}});
  }
  return pairs;
}

TEST(WithinBlockLogSpread, The1Point4826MadOfTheLogSamplesByHand) {
  // Logs 0, 1, 2, 3, 4 times ln 2; median 2 ln 2; absolute deviations 2, 1, 0, 1, 2 times ln 2, whose
  // median is ln 2: 1.4826 ln 2 = 1.027655. Samples that are not positive and finite are left out.
  EXPECT_NEAR(within_block_log_spread({1.0, 2.0, 4.0, 8.0, 16.0}), 1.4826 * std::log(2.0), 1e-12);
  EXPECT_NEAR(within_block_log_spread({16.0, 0.0, 1.0, std::nan(""), 4.0, -2.0, 8.0, 2.0}), 1.4826 * std::log(2.0),
              1e-12);
  EXPECT_EQ(within_block_log_spread({3.0}), 0.0);
  EXPECT_EQ(within_block_log_spread({}), 0.0);
}

TEST(PooledBounds, TheMedianPlusOrMinusThreeMadsOfAllTheBlockPairs) {
  // d_j sorted: -0.01, -0.01, 0, 0, 0.01, 0.01, 0.02, 0.30; median 0.005. |d_j - 0.005|: 0.005 four
  // times, 0.015 three times, 0.295; their median 0.01, so s = 0.014826 and 3 s = 0.044478.
  const auto pairs = two_block_pairs_each({{0.0, 0.01}, {-0.01, 0.0}, {0.01, -0.01}, {0.02, 0.30}});
  const auto bounds = pooled_block_ratio_bounds(pairs, kPairedNoiseBand);
  ASSERT_TRUE(bounds);
  EXPECT_NEAR(bounds->lower, 0.005 - 0.044478, 1e-9);
  EXPECT_NEAR(bounds->upper, 0.005 + 0.044478, 1e-9);
  // The 0.30 is pulled in to 0.049478: that pair's estimate, (0.02 + 0.049478) / 2, not 0.16.
  const auto estimate = estimate_pair(pairs[3], bounds);
  ASSERT_TRUE(estimate);
  EXPECT_NEAR(estimate->log_ratio, (0.02 + 0.049478) / 2.0, 1e-9);
  EXPECT_EQ(estimate->winsorised, 1u);
  EXPECT_NEAR(estimate_pair(pairs[3])->log_ratio, 0.16, 1e-12);
  EXPECT_EQ(estimate_pair(pairs[0], bounds)->winsorised, 0u);
}

TEST(PooledBounds, NeverCloserToTheCentreThanTheNoiseBand) {
  // Eight equal d_j: the MAD is 0, and the bounds are log(1.005) either side of 0.001.
  const auto bounds = pooled_block_ratio_bounds(
      two_block_pairs_each({{0.001, 0.001}, {0.001, 0.001}, {0.001, 0.001}, {0.001, 0.001}}), kPairedNoiseBand);
  ASSERT_TRUE(bounds);
  EXPECT_NEAR(bounds->lower, 0.001 - std::log1p(0.005), 1e-12);
  EXPECT_NEAR(bounds->upper, 0.001 + std::log1p(0.005), 1e-12);
}

TEST(PooledBounds, AbsentWithoutOtherPairsOrEnoughBlockPairs) {
  // One pair: nothing outside it to tell its outlier from its offset.
  std::vector<BlockPair> many;
  for (int j = 0; j < 10; ++j) many.push_back(block_pair(0.001 * j, j % 2 == 0));
  EXPECT_FALSE(pooled_block_ratio_bounds({WorkerPairBlocks{many}}, kPairedNoiseBand));
  // Three pairs of two: 6 block pairs, fewer than kMinPooledBlockPairs.
  EXPECT_FALSE(pooled_block_ratio_bounds(two_block_pairs_each({{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}}), 0.005));
  EXPECT_TRUE(pooled_block_ratio_bounds(two_block_pairs_each({{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}}), 0.005));
}

TEST(AnalyzePairs, OneBlockPairFarOffDoesNotMoveItsPairsEstimate) {
  // A/A: 8 pairs of 2 block pairs near 0, and one block pair 20% off, as the blocks of a short kernel
  // now and then are on a shared VM. Alone, that pair's x_k would be 0.1 and the signed-rank interval
  // would reach past +2%; winsorised to the row's bounds it is within 0.3% and the row is the same
  // within 2%, by each test.
  std::vector<std::pair<double, double>> d = {{0.001, -0.001}, {0.0, 0.002},    {-0.002, 0.001}, {0.001, 0.0},
                                              {-0.001, 0.0},   {0.002, -0.002}, {0.0, -0.001},   {0.2, 0.0}};
  const auto pairs = two_block_pairs_each(d);
  EXPECT_NEAR(estimate_pair(pairs.back())->log_ratio, 0.1, 1e-12);
  for (const PairTest test : {PairTest::weighted, PairTest::signed_rank, PairTest::t}) {
    const auto analysis = analyze_pairs(pairs, with_test(test));
    ASSERT_TRUE(analysis);
    std::size_t pulled_in = 0;
    for (const auto& e : analysis->estimates) pulled_in += e.winsorised;
    EXPECT_EQ(pulled_in, 1u);
    EXPECT_TRUE(analysis->block_ratio_bounds);
    EXPECT_LT(analysis->estimates.back().log_ratio, 0.003);
    EXPECT_EQ(decide_paired(*analysis, analysis->p_value, with_test(test)).verdict, Verdict::same) << to_string(test);
  }
}

TEST(AnalyzePairs, OnePairIsWithinPairEvidence) {
  const auto analysis = analyze_pairs({WorkerPairBlocks{{block_pair(0.01, true), block_pair(0.03, false)}}});
  ASSERT_TRUE(analysis);
  EXPECT_FALSE(analysis->replicated);
  EXPECT_EQ(analysis->test, "within-pair-t");
  EXPECT_FALSE(analysis->mde);
  ASSERT_TRUE(analysis->difference_interval);
  EXPECT_EQ(analysis->difference_interval->method, "within-pair-t-block-ratios");
  EXPECT_FALSE(analyze_pairs({}));
  PairedOptions bad;
  bad.alpha = 1.5;
  EXPECT_FALSE(analyze_pairs(pairs_of({0.01, 0.02}), bad));
}

TEST(SignFlip, ExactOnTinyCases) {
  // +/-1 +/-2 +/-3: sums 6, 4, 2, 0, 0, -2, -4, -6; |S| >= 6 twice in 8.
  EXPECT_DOUBLE_EQ(*sign_flip_p_value({1, 2, 3}), 0.25);
  // Observed 1 - 2 + 3 + 4 = 6 = 10 - 2A with A the flipped part of {1, 2, 3, 4}: A <= 2 or A >= 8,
  // three subsets each, 6 of 16.
  EXPECT_DOUBLE_EQ(*sign_flip_p_value({1, -2, 3, 4}), 0.375);
  EXPECT_DOUBLE_EQ(*sign_flip_p_value({1, 1}), 0.5);  // 2, 0, 0, -2: ties count as extreme
  EXPECT_DOUBLE_EQ(*sign_flip_p_value({0.5}), 1.0);
  EXPECT_FALSE(sign_flip_p_value({}));
  EXPECT_FALSE(sign_flip_p_value(std::vector<double>(25, 1.0)));
}

TEST(TTest, PValues) {
  EXPECT_NEAR(*t_test_p_value({0.01, 0.02, 0.03, 0.04}), 0.0305, 5e-4);
  EXPECT_DOUBLE_EQ(*t_test_p_value({0.0, 0.0}), 1.0);
  EXPECT_DOUBLE_EQ(*t_test_p_value({0.1, 0.1}), 0.0);
  EXPECT_FALSE(t_test_p_value({0.1}));
}

TEST(MinimumDetectableChange, ByHand) {
  // log(1.005) + (2.262157 + 1.383029) 0.01 / sqrt(10) = 0.0049875 + 0.0115271 = 0.0165146.
  EXPECT_NEAR(*minimum_detectable_change(0.01, 10, 0.005), std::expm1(0.0165146), 1e-6);
  // The sequential design's critical value 2.5 in place of t(0.975, 9).
  EXPECT_NEAR(*minimum_detectable_change(0.01, 10, 0.005, 0.05, 0.9, 2.5),
              std::expm1(0.0049875 + (2.5 + 1.383029) * 0.01 / std::sqrt(10.0)), 1e-6);
  EXPECT_NEAR(*minimum_detectable_change(0.0, 10, 0.0), 0.0, 1e-15);
  EXPECT_FALSE(minimum_detectable_change(0.01, 1, 0.005));
  EXPECT_FALSE(minimum_detectable_change(-0.01, 5, 0.005));
}

TEST(DecidePaired, TheVerdicts) {
  const PairedOptions options;  // band 0.5%, margin 2%
  const auto decide_on = [&](RatioInterval difference, RatioInterval equivalence, double p, bool replicated = true) {
    return decide_paired(difference, equivalence, replicated, 100, 100, p, options).verdict;
  };
  EXPECT_EQ(decide_on(interval(0.98, 1.02), interval(0.985, 1.015), 0.5), Verdict::same);
  EXPECT_EQ(decide_on(interval(1.01, 1.05), interval(1.012, 1.045), 0.001), Verdict::slower);
  EXPECT_EQ(decide_on(interval(0.95, 0.99), interval(0.955, 0.985), 0.001), Verdict::faster);
  EXPECT_EQ(decide_on(interval(1.01, 1.05), interval(1.012, 1.045), 0.2), Verdict::inconclusive);     // p too big
  EXPECT_EQ(decide_on(interval(1.004, 1.05), interval(1.006, 1.045), 0.001), Verdict::inconclusive);  // in band
  EXPECT_EQ(decide_on(interval(0.97, 1.03), interval(0.975, 1.025), 0.5), Verdict::inconclusive);
  // The 90% interval's edges count as inside the margin; just past them they do not.
  EXPECT_EQ(decide_on(interval(0.97, 1.03), interval(0.98, 1.02), 0.5), Verdict::same);
  EXPECT_EQ(decide_on(interval(0.97, 1.03), interval(0.98, 1.0201), 0.5), Verdict::inconclusive);
}

TEST(DecidePaired, ASmallChangeIsSlowerWithinTheMargin) {
  const PairedDecision decision =
      decide_paired(interval(1.006, 1.014), interval(1.007, 1.013), true, 100, 100, 0.001, PairedOptions{});
  EXPECT_EQ(decision.verdict, Verdict::slower);
  EXPECT_TRUE(decision.within_margin);
}

TEST(DecidePaired, OnePairIsUnreplicatedForSameAsForSlower) {
  const PairedOptions options;
  EXPECT_EQ(decide_paired(interval(0.99, 1.01), interval(0.995, 1.005), false, 100, 100, 0.5, options).verdict,
            Verdict::unreplicated);
  EXPECT_EQ(decide_paired(interval(1.05, 1.07), interval(1.052, 1.068), false, 100, 100, 0.001, options).verdict,
            Verdict::unreplicated);
  EXPECT_EQ(decide_paired(interval(0.95, 1.07), interval(0.96, 1.06), false, 100, 100, 0.5, options).verdict,
            Verdict::inconclusive);
  // Through analyze_pairs: one pair of identical block ratios.
  const auto one = analyze_pairs({WorkerPairBlocks{{block_pair(0.0, true), block_pair(0.0, false)}}});
  ASSERT_TRUE(one);
  EXPECT_EQ(decide_paired(*one, one->p_value).verdict, Verdict::unreplicated);
}

TEST(DecidePaired, TooFewSamplesAreInsufficient) {
  EXPECT_EQ(decide_paired(interval(0.99, 1.01), interval(0.995, 1.005), true, 5, 100, 0.5).verdict,
            Verdict::insufficient);
  PairedAnalysis no_interval;
  EXPECT_EQ(decide_paired(no_interval, 0.5).verdict, Verdict::insufficient);
}

TEST(NoiseSource, SaysWhichLevelTheNoiseIsAtWithItsLevels) {
  // Each pair's two block pairs agree, so the blocks explain none of the x_k's spread: the sample sd of
  // {0, 0.06, -0.06, 0} is sqrt(2 * 0.0036 / 3) = 4.90%, all of it between processes. (The pooled
  // bounds, 0 -/+ 3 (1.4826 0.03), pull nothing in.)
  const auto apart = analyze_pairs(pairs_of({0.0, 0.06, -0.06, 0.0}));
  ASSERT_TRUE(apart);
  EXPECT_DOUBLE_EQ(apart->variance.from_blocks, 0.0);
  const auto between = noise_source(apart->variance);
  ASSERT_TRUE(between);
  EXPECT_EQ(between->level, NoiseLevel::between_processes);
  EXPECT_NEAR(between->between_pairs_sd, std::sqrt(2.0 * 0.0036 / 3.0), 1e-12);
  EXPECT_EQ(between->from_blocks_sd, 0.0);
  // Each pair's block pairs read +5% and -5%, and the pairs agree: the blocks explain it all,
  // (pi / 2) (1.4826 * 0.05)^2 / 2 of var(x_k).
  const std::vector<WorkerPairBlocks> split(4, WorkerPairBlocks{{block_pair(0.05, true), block_pair(-0.05, false)}});
  const auto within = analyze_pairs(split);
  ASSERT_TRUE(within);
  EXPECT_NEAR(within->variance.from_blocks, 0.5 * std::acos(-1.0) * std::pow(1.4826 * 0.05, 2) / 2.0, 1e-6);
  EXPECT_EQ(within->variance.between_pairs, 0.0);
  const auto inside = noise_source(within->variance);
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->level, NoiseLevel::within_processes);
  // A block pair's d_j sd is 1.4826 * 0.05 = 7.41%; sqrt(pi / 4) of it, 6.57%, is left in x_k.
  EXPECT_NEAR(inside->between_blocks_sd, 1.4826 * 0.05, 1e-6);
  EXPECT_NEAR(inside->from_blocks_sd, std::sqrt(0.25 * std::acos(-1.0)) * 1.4826 * 0.05, 1e-6);
  EXPECT_EQ(inside->between_pairs_sd, 0.0);
  // One pair: nothing is known between pairs.
  EXPECT_FALSE(noise_source(PairedVariance{}));
}

TEST(ExactTestLeastPairs, AreThePairsWhoseLeastPPassesBenjaminiHochbergAlone) {
  // 2^(1-K) <= q / m. One benchmark at 0.05: 1/32 = 0.031 passes, 1/16 does not: 6. Four: 0.0125 needs
  // 1/128 (8). Twelve: 0.00417 needs 1/256 (9). Fifty: 0.001 needs 1/1024 (11). Four at 0.1: 0.025
  // needs 1/64 (7).
  EXPECT_EQ(exact_test_least_pairs(1, 0.05), 6u);
  EXPECT_EQ(exact_test_least_pairs(4, 0.05), 8u);
  EXPECT_EQ(exact_test_least_pairs(12, 0.05), 9u);
  EXPECT_EQ(exact_test_least_pairs(50, 0.05), 11u);
  EXPECT_EQ(exact_test_least_pairs(4, 0.1), 7u);
  // On the boundary the least p passes: 2^-4 = 1/16 = 0.5 / 8 exactly.
  EXPECT_EQ(exact_test_least_pairs(8, 0.5), 5u);
  // Nothing to adjust, or a level out of range: one benchmark, 0.05.
  EXPECT_EQ(exact_test_least_pairs(0, 0.05), 6u);
  EXPECT_EQ(exact_test_least_pairs(1, 0.0), 6u);
  EXPECT_EQ(exact_test_least_pairs(1, 1.0), 1u);
}

TEST(PairsForDetectableChange, AreTheFewestWhoseMdeReachesTheTarget) {
  // sd 5%, band 0.5%, target 2%: (t_{.975,K-1} + t_{.9,K-1}) / sqrt(K) <= (log 1.02 - log 1.005) / 0.05
  // = 0.29630. At K = 122 (121 degrees) 3.2684 / 11.045 = 0.29591; at 121, 3.2686 / 11 = 0.29715.
  PairedOptions options;
  options.noise_band = 0.005;
  const auto pairs = pairs_for_detectable_change(0.05, 10, 0.02, options);
  ASSERT_TRUE(pairs);
  EXPECT_EQ(*pairs, 122u);
  EXPECT_LE(*minimum_detectable_change(0.05, 122, 0.005), 0.02);
  EXPECT_GT(*minimum_detectable_change(0.05, 121, 0.005), 0.02);
  // Within the target already, a target the band leaves no room for, too few pairs, no spread: absent.
  EXPECT_FALSE(pairs_for_detectable_change(0.05, 200, 0.02, options));
  EXPECT_FALSE(pairs_for_detectable_change(0.05, 10, 0.005, options));
  EXPECT_FALSE(pairs_for_detectable_change(0.05, 1, 0.02, options));
  EXPECT_FALSE(pairs_for_detectable_change(0.0, 10, 0.02, options));
}

TEST(ExactLeastP, IsTwoOfTheSignPatterns) {
  // 6 pairs all on one side: 2 of the 2^6 sign patterns are as extreme, 1/32.
  EXPECT_DOUBLE_EQ(exact_least_p(6), 0.03125);
  EXPECT_DOUBLE_EQ(exact_least_p(2), 0.5);
  EXPECT_TRUE(exact_test("weighted-sign-flip-exact"));
  EXPECT_TRUE(exact_test("signed-rank-exact"));
  EXPECT_FALSE(exact_test("weighted-hksj-t"));
  EXPECT_FALSE(exact_test("-exact"));
}

TEST(GeometricMeanRatio, OverBenchmarks) {
  const auto ratio = geometric_mean_ratio({std::log(1.01), std::log(1.03)});
  ASSERT_TRUE(ratio);
  EXPECT_NEAR(ratio->ratio, std::sqrt(1.01 * 1.03), 1e-12);
  // sd of the two logs / sqrt(2) times t(0.975, 1) = 12.7062.
  const double half = 12.7062 * std::fabs(std::log(1.03) - std::log(1.01)) / std::sqrt(2.0) / std::sqrt(2.0);
  EXPECT_NEAR(std::log(ratio->upper), 0.5 * (std::log(1.01) + std::log(1.03)) + half, 1e-4);
  EXPECT_FALSE(geometric_mean_ratio({0.01}));
}

}  // namespace
}  // namespace gbx

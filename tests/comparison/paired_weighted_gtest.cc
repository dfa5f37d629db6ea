// The weighted test across worker pairs in analyze_pairs and at a sequential look: what it reports, and
// that a noisy pair of 2 block pairs weighs less than one of many (stats/paired.h, stats/weighted_pairs.h).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "stats/paired.h"
#include "stats/sequential.h"
#include "stats/weighted_pairs.h"

namespace gbx {
namespace {

// A block pair whose medians are exactly 1 and e^d: d_j = d.
BlockPair block_pair(double d, bool candidate_first) {
  const double c = std::exp(d);
  return BlockPair{{1.0, 1.0, 1.0}, {c, c, c}, candidate_first, 0.0};
}

// A pair of 2 n block pairs alternating the orders, each order's d_j = centre - spread, centre, centre +
// spread, centre - spread, ... (so for n = 5 its x_k is centre, and its own sigma 1.4826 spread).
WorkerPairBlocks pair_of(double centre, double spread, std::size_t n) {
  WorkerPairBlocks pair;
  for (std::size_t j = 0; j < 2 * n; ++j) {
    const double offset = spread * (static_cast<double>((j / 2) % 3) - 1.0);
    pair.block_pairs.push_back(block_pair(centre + offset, j % 2 == 0));
  }
  return pair;
}

PairedOptions weighted_test() {
  PairedOptions options;
  options.test = PairTest::weighted;
  return options;
}

TEST(PairTestNames, WeightedSignFlipRoundTrips) {
  EXPECT_STREQ(to_string(PairTest::weighted), "weighted-sign-flip");
  EXPECT_EQ(parse_pair_test("weighted-sign-flip"), PairTest::weighted);
  EXPECT_FALSE(parse_pair_test("weighted"));
}

TEST(AnalyzePairsWeighted, ANoisyShortPairWeighsLessAndTheIntervalIsTheWeightedSignFlips) {
  // Six pairs of 10 block pairs at x = 0.020 .. 0.025 (spread 0.002 within), and one of 2 block pairs
  // at 0.01: its variance takes the pooled one over 1 block pair per order, not a median of 5.
  std::vector<WorkerPairBlocks> pairs;
  for (int k = 0; k < 6; ++k) pairs.push_back(pair_of(0.020 + 0.001 * k, 0.002, 5));
  pairs.push_back(pair_of(0.030, 0.02, 1));
  const auto a = analyze_pairs(pairs, weighted_test());
  ASSERT_TRUE(a);
  ASSERT_TRUE(a->weighted);
  EXPECT_FALSE(a->signed_rank);
  EXPECT_EQ(a->test, "weighted-sign-flip-exact");
  ASSERT_EQ(a->weighted->weights.size(), 7u);
  for (int k = 0; k < 6; ++k) EXPECT_GT(a->weighted->weights[k], a->weighted->weights[6]);
  // The same numbers as the functions give on the pairs' x_k and variances.
  const auto again = weighted_sign_flip_interval(*a->weighted, 0.025);
  ASSERT_TRUE(again && again->bounded);
  ASSERT_TRUE(a->difference_interval);
  EXPECT_NEAR(std::log(a->difference_interval->lower), again->lower, 1e-12);
  EXPECT_NEAR(std::log(a->difference_interval->upper), again->upper, 1e-12);
  EXPECT_NEAR(std::log(a->ratio), a->weighted->centre, 1e-12);
  EXPECT_EQ(a->difference_interval->method, "weighted-sign-flip");
  // Every x_k is positive: of the 2^7 sign flips only the two all-one-sign ones are as extreme.
  EXPECT_NEAR(a->p_value, 2.0 / 128.0, 1e-12);
  ASSERT_TRUE(a->se_log_ratio);
  EXPECT_GT(*a->se_log_ratio, 0.0);
}

TEST(AnalyzePairsWeighted, BeyondTwentyPairsTheIntervalIsHksj) {
  std::vector<WorkerPairBlocks> pairs;
  for (int k = 0; k < 24; ++k) pairs.push_back(pair_of(0.010 + 0.0005 * (k % 5), 0.002, 5));
  const auto a = analyze_pairs(pairs, weighted_test());
  ASSERT_TRUE(a && a->weighted);
  EXPECT_EQ(a->test, "weighted-hksj-t");
  ASSERT_TRUE(a->difference_interval);
  EXPECT_EQ(a->difference_interval->method, "weighted-hksj");
  const auto again = hksj_interval(*a->weighted, 0.025);
  ASSERT_TRUE(again);
  EXPECT_NEAR(std::log(a->difference_interval->lower), again->lower, 1e-12);
  EXPECT_LT(a->p_value, 1e-6);  // 24 pairs all near +1%
}

TEST(AnalyzePairsWeighted, OnePairHasNoWeightsAndStaysWithinPair) {
  const auto a = analyze_pairs({pair_of(0.01, 0.002, 5)}, weighted_test());
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->weighted);
  EXPECT_EQ(a->test, "within-pair-t");
}

TEST(SequentialWeighted, ALookUsesTheRepeatedWeightedIntervals) {
  std::vector<WorkerPairBlocks> pairs;
  for (int k = 0; k < 6; ++k) pairs.push_back(pair_of(0.020 + 0.001 * k, 0.002, 5));
  SequentialDesign design;
  design.options.test = PairTest::weighted;
  design.looks = {6};
  std::vector<SequentialRow> rows(1);
  sequential_look({pairs}, rows, design, true);
  ASSERT_TRUE(rows[0].difference);
  EXPECT_EQ(rows[0].difference->method, "repeated-weighted-sign-flip");
  EXPECT_TRUE(rows[0].stopped);
}

}  // namespace
}  // namespace gbx

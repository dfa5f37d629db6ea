// The words of an undecided gbx ab row (ab/paired.h): the statistics give the numbers (stats/paired.h:
// the MDE, the exact test's least p, noise_source), and gbx ab says them, naming its own flags.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "ab/paired.h"

namespace {

using gbx::tools::detectable_change_clause;
using gbx::tools::held_back_sentence;
using gbx::tools::noise_level_clause;

TEST(AbSentences, TheDetectableChangeInOneDecimal) {
  EXPECT_EQ(detectable_change_clause(0.031), "a change of 3.1% or more would have been seen");
  EXPECT_EQ(detectable_change_clause(0.121), "a change of 12.1% or more would have been seen");
  EXPECT_EQ(detectable_change_clause(std::nullopt), "the run has no replicated estimate of its noise");
  EXPECT_EQ(detectable_change_clause(std::nan("")), "the run has no replicated estimate of its noise");
  EXPECT_EQ(detectable_change_clause(10.5), "only a change of more than 1000% would have been seen");
}

TEST(AbSentences, HeldBackSaysTheTestNotTheMdeHeldItBack) {
  // 6 pairs: an exact test's least p is 2^(1-6) = 1/32 = 0.031.
  EXPECT_EQ(held_back_sentence(0.125, "weighted-sign-flip-exact", 6),
            "inconclusive: beyond the noise band, but not significant across the benchmarks (adjusted p 0.125; with 6 "
            "worker pairs an exact test's p is at least 0.031): more worker pairs, from a larger --budget, would "
            "decide it");
  EXPECT_EQ(held_back_sentence(0.08, "weighted-hksj-t", 25),
            "inconclusive: beyond the noise band, but not significant across the benchmarks (adjusted p 0.08): more "
            "worker pairs, from a larger --budget, would decide it");
}

TEST(AbSentences, TheNoiseLevelAndWhatWouldNarrowIt) {
  // Between processes: the pairs' variance 0.0024 (sd 4.90%) above what their blocks explain, 0.0001 (1.0%).
  gbx::PairedVariance apart;
  apart.between_pairs = 0.0024;
  apart.from_blocks = 0.0001;
  apart.between_blocks = 0.0004;
  EXPECT_EQ(noise_level_clause(apart),
            "the noise is between processes: the pairs' ratios vary by 4.9% (sd) beyond the 1.0% their blocks "
            "explain; more worker pairs, from a larger --budget, would narrow it, longer pairs would not");
  // Within processes: a block pair's d_j sd 7.41% (variance 0.00549), 6.57% of it left in each pair's
  // estimate (variance 0.004316), and nothing between processes.
  gbx::PairedVariance within;
  within.between_pairs = 0.0;
  within.from_blocks = 0.004316;
  within.between_blocks = 0.00549;
  EXPECT_EQ(noise_level_clause(within),
            "the noise is within processes: a block pair's ratio varies by 7.4% (sd) about its pair's, leaving 6.6% "
            "in each pair's, against 0.0% between processes; more block pairs and worker pairs, from a larger "
            "--budget, would narrow it");
  // One pair: nothing is known between pairs, and nothing is said.
  EXPECT_EQ(noise_level_clause(gbx::PairedVariance{}), "");
}

}  // namespace

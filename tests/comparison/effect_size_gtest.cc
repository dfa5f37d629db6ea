// hodges_lehmann_shift and cliffs_delta against pairwise differences counted by hand.
#include <vector>

#include <gtest/gtest.h>

#include "stats/comparison.h"

namespace gbx {
namespace {

TEST(HodgesLehmann, OddNumberOfPairs) {
  // cand - base for base {1, 2, 3}, cand {2, 4, 7}: 1 0 -1, 3 2 1, 6 5 4; sorted -1 0 1 1 2 3 4 5 6.
  EXPECT_DOUBLE_EQ(hodges_lehmann_shift({1, 2, 3}, {2, 4, 7}), 2.0);
  EXPECT_DOUBLE_EQ(hodges_lehmann_shift({2, 4, 7}, {1, 2, 3}), -2.0);
}

TEST(HodgesLehmann, EvenNumberOfPairsAveragesTheMiddleTwo) {
  // base {1, 2}, cand {3, 10}: 2 1 9 8, sorted 1 2 8 9, median (2 + 8) / 2.
  EXPECT_DOUBLE_EQ(hodges_lehmann_shift({1, 2}, {3, 10}), 5.0);
}

TEST(HodgesLehmann, ConstantShiftIsRecovered) {
  const std::vector<double> base{3.0, 1.0, 4.0, 1.5, 9.0, 2.5};
  std::vector<double> cand;
  for (double b : base) cand.push_back(b + 0.75);
  // Differences b_j - b_i + 0.75 are symmetric about 0.75.
  EXPECT_DOUBLE_EQ(hodges_lehmann_shift(base, cand), 0.75);
  EXPECT_DOUBLE_EQ(hodges_lehmann_shift({}, cand), 0.0);
}

TEST(CliffsDelta, CountsPairsWithTies) {
  // base {1, 2, 3}, cand {2, 4, 7}: 7 pairs with cand > base, 1 with cand < base (2 < 3), 1 tie.
  EXPECT_DOUBLE_EQ(cliffs_delta({1, 2, 3}, {2, 4, 7}), 6.0 / 9.0);
  EXPECT_DOUBLE_EQ(cliffs_delta({2, 4, 7}, {1, 2, 3}), -6.0 / 9.0);
}

TEST(CliffsDelta, ExtremesAndEmpty) {
  EXPECT_DOUBLE_EQ(cliffs_delta({1, 2}, {3, 4, 5}), 1.0);
  EXPECT_DOUBLE_EQ(cliffs_delta({3, 4, 5}, {1, 2}), -1.0);
  EXPECT_DOUBLE_EQ(cliffs_delta({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_DOUBLE_EQ(cliffs_delta({}, {1.0}), 0.0);
}

TEST(CliffsDelta, AgreesWithMannWhitneyU) {
  // delta = (2 U - n1 n2) / (n1 n2), U counting ties as 1/2.
  const std::vector<double> base{1, 2, 2, 3, 3, 3, 4, 5};
  const std::vector<double> cand{3, 4, 4, 5, 5, 6, 6, 7, 7};
  EXPECT_DOUBLE_EQ(cliffs_delta(base, cand), (2.0 * mann_whitney(base, cand).u - 72.0) / 72.0);
}

}  // namespace
}  // namespace gbx

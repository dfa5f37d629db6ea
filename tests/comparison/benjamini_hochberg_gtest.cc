// benjamini_hochberg against a worked example.
#include <vector>

#include <gtest/gtest.h>

#include "stats/comparison.h"

namespace gbx {
namespace {

TEST(BenjaminiHochberg, TenPValuesWorkedByHand) {
  const std::vector<double> p{0.01, 0.04, 0.03, 0.005, 0.20, 0.50, 0.02, 0.60, 0.045, 0.90};
  // Sorted with rank k: .005(1) .01(2) .02(3) .03(4) .04(5) .045(6) .2(7) .5(8) .6(9) .9(10).
  // p m / k: .05 .05 .0667 .075 .08 .075 .2857 .625 .6667 .9. The running minimum from the top
  // lowers rank 5 from .08 to .075 (rank 6's value): that step is what makes q monotone.
  const std::vector<double> expected{0.05, 0.075, 0.075, 0.05, 2.0 / 7.0, 0.625, 0.2 / 3.0, 6.0 / 9.0, 0.075, 0.9};
  const std::vector<double> q = benjamini_hochberg(p);
  ASSERT_EQ(q.size(), p.size());
  for (std::size_t i = 0; i < p.size(); ++i) EXPECT_NEAR(q[i], expected[i], 1e-15) << "index " << i;
  // Monotone in p, and never below p.
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_GE(q[i], p[i]);
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (p[i] < p[j]) {
        EXPECT_LE(q[i], q[j]);
      }
    }
  }
}

TEST(BenjaminiHochberg, SingleIsIdentityAndClamped) {
  EXPECT_EQ(benjamini_hochberg({0.03}), std::vector<double>{0.03});
  EXPECT_TRUE(benjamini_hochberg({}).empty());
  // 1.5 is taken as 1 (rank 3: 1 * 3 / 3 = 1); 0.95 * 3 / 2 and 0.9 * 3 / 1 exceed it, so all are 1.
  EXPECT_EQ(benjamini_hochberg({1.5, 0.9, 0.95}), (std::vector<double>{1.0, 1.0, 1.0}));
  // Ranks 1 and 2: 0.3 * 2 / 1 = 0.6 > 0.4 * 2 / 2 = 0.4, so both get 0.4.
  EXPECT_EQ(benjamini_hochberg({0.4, 0.3}), (std::vector<double>{0.4, 0.4}));
}

TEST(BenjaminiHochberg, EqualPValuesShareTheirQValue) {
  // m = 4, all 0.02: rank 4 gives 0.02 and every smaller rank takes it by the running minimum.
  const std::vector<double> q = benjamini_hochberg({0.02, 0.02, 0.02, 0.02});
  for (double value : q) EXPECT_DOUBLE_EQ(value, 0.02);
}

}  // namespace
}  // namespace gbx

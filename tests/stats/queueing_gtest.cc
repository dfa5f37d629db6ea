// Queueing formulas (stats/queueing.h) against values computed by hand.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "stats/queueing.h"

namespace gbx {
namespace {

TEST(Queueing, MD1PollaczekKhinchine) {
  // lambda 0.5/s, service 1 s: rho 0.5, Wq = 0.5 * 1 / (2 * 0.5) = 0.5 s, W = 1.5 s,
  // Lq = 0.5 * 0.5 = 0.25, L = 0.5 * 1.5 = 0.75.
  const auto s = md1_steady_state(0.5, 1.0);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->utilization, 0.5);
  EXPECT_DOUBLE_EQ(s->mean_wait, 0.5);
  EXPECT_DOUBLE_EQ(s->mean_response, 1.5);
  EXPECT_DOUBLE_EQ(s->mean_in_queue, 0.25);
  EXPECT_DOUBLE_EQ(s->mean_in_system, 0.75);
  // rho 0.9, service 2 ms (lambda 450/s): Wq = 0.9 * 0.002 / (2 * 0.1) = 0.009 s.
  EXPECT_NEAR(md1_steady_state(450.0, 0.002)->mean_wait, 0.009, 1e-15);
}

TEST(Queueing, MM1WaitsTwiceAsLongAsMD1) {
  // lambda 0.5/s, mean service 1 s: Wq = 0.5 * 1 / 0.5 = 1 s, W = 2 s, L = rho / (1 - rho) = 1.
  const auto s = mm1_steady_state(0.5, 1.0);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->mean_wait, 1.0);
  EXPECT_DOUBLE_EQ(s->mean_response, 2.0);
  EXPECT_DOUBLE_EQ(s->mean_in_system, 1.0);
  // rho 0.8: Wq = 0.8 / 0.2 = 4 s.
  EXPECT_DOUBLE_EQ(mm1_steady_state(0.8, 1.0)->mean_wait, 4.0);
}

TEST(Queueing, MG1FromMeanAndVariance) {
  // lambda 2/s, E[S] 0.25 s, Var[S] 0.01: rho 0.5, E[S^2] = 0.0725, Wq = 2 * 0.0725 / (2 * 0.5) = 0.145,
  // W = 0.395, Lq = 0.29, L = 0.79.
  const auto s = mg1_steady_state(2.0, 0.25, 0.01);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->utilization, 0.5);
  EXPECT_NEAR(s->mean_wait, 0.145, 1e-15);
  EXPECT_NEAR(s->mean_response, 0.395, 1e-15);
  EXPECT_NEAR(s->mean_in_queue, 0.29, 1e-15);
  EXPECT_NEAR(s->mean_in_system, 0.79, 1e-15);
}

TEST(Queueing, NoSteadyStateAtOrAboveSaturation) {
  EXPECT_FALSE(md1_steady_state(1.0, 1.0));  // rho = 1
  EXPECT_FALSE(mm1_steady_state(2.0, 1.0));
  EXPECT_FALSE(mg1_steady_state(0.5, 1.0, -1.0));
  EXPECT_FALSE(mg1_steady_state(0.0, 1.0, 0.0));
  EXPECT_FALSE(md1_steady_state(std::numeric_limits<double>::quiet_NaN(), 1.0));
  EXPECT_FALSE(md1_steady_state(0.5, std::numeric_limits<double>::infinity()));
}

TEST(Queueing, LittlesLawGapAgainstTolerance) {
  // lambda 10/s, W 0.2 s: lambda W = 2; L = 2.1: gap = 0.1 / 2.1 = 0.047619...
  const auto check = littles_law_check(10.0, 0.2, 2.1, 0.05);
  ASSERT_TRUE(check);
  EXPECT_DOUBLE_EQ(check->lambda_w, 2.0);
  EXPECT_NEAR(check->relative_gap, 0.1 / 2.1, 1e-15);
  EXPECT_TRUE(check->holds);
  EXPECT_FALSE(littles_law_check(10.0, 0.2, 2.1, 0.04)->holds);
  // The gap is symmetric: L below lambda W by the same amount.
  EXPECT_NEAR(littles_law_check(10.0, 0.21, 2.0, 0.05)->relative_gap, 0.1 / 2.1, 1e-15);
  EXPECT_DOUBLE_EQ(littles_law_check(0.0, 0.0, 0.0, 0.05)->relative_gap, 0.0);
  EXPECT_FALSE(littles_law_check(-1.0, 0.2, 2.0, 0.05));
  EXPECT_FALSE(littles_law_check(1.0, 0.2, 2.0, 1.0));
}

TEST(Queueing, RateByBatchMeans) {
  // Window [0, 1) in 2 batches: 0.1 0.2 0.3 0.4 | 0.6 0.7; -0.1 and 1.0 fall outside.
  // Rate 6/s; batch rates 8 and 4: mean 6, sd = sqrt((4 + 4) / 1) = 2.828, se = 2,
  // t(0.975, 1) = 12.7062047, half-width 25.4124094.
  const auto r = rate_in_window({-0.1, 0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 1.0}, 0.0, 1.0, 2);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->events, 6u);
  EXPECT_DOUBLE_EQ(r->rate, 6.0);
  ASSERT_TRUE(r->interval);
  EXPECT_NEAR(r->interval->lower, 6.0 - 25.4124094, 1e-6);
  EXPECT_NEAR(r->interval->upper, 6.0 + 25.4124094, 1e-6);
  EXPECT_EQ(r->interval->method, "batch_means_student_t");
  EXPECT_FALSE(rate_in_window({0.5}, 1.0, 1.0));
  EXPECT_FALSE(rate_in_window({0.5}, 0.0, 1.0, 1)->interval);
}

}  // namespace
}  // namespace gbx

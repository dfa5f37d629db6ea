// Process-level statistics (stats/hierarchical.h) against values worked by hand from their formulas,
// and seeded simulations with loose bounds.
#include <gtest/gtest.h>

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "stats/bootstrap.h"
#include "stats/hierarchical.h"

namespace {

using Groups = std::vector<std::vector<double>>;

double t_975(double df) { return boost::math::quantile(boost::math::students_t(df), 0.975); }

// Groups of n samples: T exp(b_i + e_ij), b ~ N(0, between^2), e ~ N(0, within^2).
Groups simulate(std::mt19937_64& engine, std::size_t k, std::size_t n, double between, double within, double t = 1e-3) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Groups groups(k);
  for (auto& group : groups) {
    const double offset = between * normal(engine);
    for (std::size_t j = 0; j < n; ++j) group.push_back(t * std::exp(offset + within * normal(engine)));
  }
  return groups;
}

TEST(HierarchicalMedian, StudentTOnLogProcessMedians) {
  // Process medians 2, 4 and 8: log mean = log 4, log sd = log 2.
  const Groups groups = {{1, 2, 3}, {4, 3, 5, 4}, {8}};
  const auto e = gbx::hierarchical_median(groups, 0.0);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->processes, 3u);
  EXPECT_EQ(e->samples_per_process, (std::vector<std::size_t>{3, 4, 1}));
  EXPECT_FALSE(e->single_process);
  EXPECT_EQ(e->method, "log-t-process-medians");
  EXPECT_NEAR(e->median, 4.0, 1e-12);
  const double half = t_975(2.0) * std::log(2.0) / std::sqrt(3.0);
  EXPECT_NEAR(e->lower, 4.0 * std::exp(-half), 1e-9);
  EXPECT_NEAR(e->upper, 4.0 * std::exp(half), 1e-9);
  ASSERT_TRUE(e->between_process_cv);
  ASSERT_TRUE(e->within_process_cv);
}

TEST(HierarchicalMedian, EmptyGroupsAreIgnoredAndBadInputIsAbsent) {
  const auto e = gbx::hierarchical_median({{}, {2.0, 2.0}, {}, {8.0}}, 0.0);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->processes, 2u);
  EXPECT_NEAR(e->median, 4.0, 1e-12);
  EXPECT_FALSE(gbx::hierarchical_median({}, 0.0));
  EXPECT_FALSE(gbx::hierarchical_median({{}, {}}, 0.0));
  EXPECT_FALSE(gbx::hierarchical_median({{1.0, NAN}, {2.0}}, 0.0));
  EXPECT_FALSE(gbx::hierarchical_median({{0.0}, {2.0}}, 0.0));
  EXPECT_FALSE(gbx::hierarchical_median({{1.0}, {2.0}}, 0.0, 1.0));
}

TEST(HierarchicalMedian, OneProcessIsTheSingleProcessBootstrapMarkedAsSuch) {
  std::mt19937_64 engine(3);
  const Groups groups = simulate(engine, 1, 60, 0.0, 0.02);
  const auto e = gbx::hierarchical_median(groups, 0.0);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->single_process);
  EXPECT_FALSE(e->between_process_cv);
  EXPECT_FALSE(e->plan);
  const gbx::BootstrapResult b = gbx::bootstrap_interval(groups[0], gbx::BootstrapStatistic::median);
  EXPECT_EQ(e->median, b.estimate);
  EXPECT_EQ(e->lower, b.interval->lower);
  EXPECT_EQ(e->upper, b.interval->upper);
  EXPECT_NE(e->method.find("single-process"), std::string::npos) << e->method;
}

TEST(HierarchicalMedian, QuantizedSamplesAreWidenedByHalfATick) {
  const Groups same(5, std::vector<double>(20, 3e-6));
  const auto e = gbx::hierarchical_median(same, 1e-6);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->lower, 2.5e-6, 1e-18);
  EXPECT_NEAR(e->upper, 3.5e-6, 1e-18);
  const auto single = gbx::hierarchical_median({std::vector<double>(20, 3e-6)}, 1e-6);
  ASSERT_TRUE(single);
  EXPECT_NEAR(single->lower, 2.5e-6, 1e-18);
  EXPECT_NEAR(single->upper, 3.5e-6, 1e-18);
  const auto unknown = gbx::hierarchical_median(same, 0.0);
  EXPECT_EQ(unknown->lower, unknown->upper);
}

TEST(HierarchicalMedian, VarianceComponentsRecoverTheSimulatedNoise) {
  std::mt19937_64 engine(5);
  const auto e = gbx::hierarchical_median(simulate(engine, 300, 100, 0.03, 0.01), 0.0);
  ASSERT_TRUE(e && e->between_process_cv && e->within_process_cv);
  EXPECT_NEAR(*e->between_process_cv, 0.03, 0.004);
  EXPECT_NEAR(*e->within_process_cv, 0.01, 0.0008);
  const auto flat = gbx::hierarchical_median(simulate(engine, 300, 100, 0.0, 0.01), 0.0);
  EXPECT_LT(*flat->between_process_cv, 0.002);
}

TEST(HierarchicalMedian, CoversTheProcessLevelMedianOnSimulatedData) {
  std::mt19937_64 engine(7);
  int covered = 0;
  const int trials = 400;
  for (int trial = 0; trial < trials; ++trial) {
    const auto e = gbx::hierarchical_median(simulate(engine, 10, 30, 0.03, 0.01), 0.0);
    if (e->lower <= 1e-3 && 1e-3 <= e->upper) ++covered;
  }
  EXPECT_GE(covered, trials * 90 / 100);
  EXPECT_LE(covered, trials * 99 / 100);
}

TEST(ReplicationPlan, MeetsTheTargetWithTheFewestProcessesAndSamples) {
  const double between = 0.03 * 0.03;
  const double within = 0.01 * 0.01;
  const auto plan = gbx::plan_replication(between, within, 1.0, 0.01, 0.01);
  ASSERT_TRUE(plan);
  ASSERT_TRUE(plan->reachable);
  const double a = M_PI / 2 * within;
  const double goal = std::log(1.01);
  const auto half = [&](std::size_t k, std::size_t n) {
    return t_975(static_cast<double>(k - 1)) *
           std::sqrt((between + a / static_cast<double>(n)) / static_cast<double>(k));
  };
  const std::size_t k = plan->processes;
  const std::size_t n = plan->samples_per_process;
  EXPECT_LE(half(k, n), goal);
  EXPECT_GT(half(k, n - 1), goal);
  // n* = sqrt(a c_p / (sigma_b^2 c_s)) = 4.2, so 5 samples, and K = 2 processes fall short.
  EXPECT_LE(n, 5u);
  EXPECT_GT(half(k - 1, 5), goal);
  EXPECT_NEAR(plan->total_seconds, static_cast<double>(k) * (1.0 + 0.01 * static_cast<double>(n)), 1e-9);
  EXPECT_NEAR(plan->expected_relative_half_width, std::expm1(half(k, n)), 1e-12);
  // Cheapest over a grid, within a few percent (the optimum treats n as continuous).
  double cheapest = 1e300;
  for (std::size_t kk = 2; kk <= 400; ++kk) {
    for (std::size_t nn = 2; nn <= 200; ++nn) {
      if (half(kk, nn) <= goal)
        cheapest = std::min(cheapest, static_cast<double>(kk) * (1.0 + 0.01 * static_cast<double>(nn)));
    }
  }
  EXPECT_LE(plan->total_seconds, 1.05 * cheapest);
}

TEST(ReplicationPlan, NoBetweenVarianceNeedsTwoProcessesAndUnreachableTargetsSaySo) {
  const auto flat = gbx::plan_replication(0.0, 1e-4, 1.0, 0.01, 0.01);
  ASSERT_TRUE(flat);
  EXPECT_EQ(flat->processes, 2u);
  EXPECT_TRUE(flat->reachable);
  const auto hopeless = gbx::plan_replication(1.0, 1.0, 1.0, 0.01, 0.0001);
  ASSERT_TRUE(hopeless);
  EXPECT_FALSE(hopeless->reachable);
  EXPECT_EQ(hopeless->processes, gbx::kPlanMaxProcesses);
  EXPECT_FALSE(gbx::plan_replication(1e-4, 1e-4, 1.0, 0.01, 0.0));
  EXPECT_FALSE(gbx::plan_replication(1e-4, 1e-4, 0.0, 0.01, 0.01));
}

TEST(HierarchicalRatio, WelchOnLogProcessMediansWhenBothSidesHaveProcesses) {
  // Base process medians 1, 2 (log sd s_b); candidate 2, 4, 8.
  const Groups base = {{1.0}, {2.0, 2.0, 2.0}};
  const Groups cand = {{2.0}, {4.0}, {8.0, 7.0, 9.0}};
  const auto r = gbx::hierarchical_ratio(base, cand, 0.0, 0.0);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->process_level);
  EXPECT_EQ(r->test, "welch-t-log-process-medians");
  const double l2 = std::log(2.0);
  const double d = 2.0 * l2 - 0.5 * l2;
  const double vb = 0.5 * l2 * l2 / 2.0;  // var(0, l2) = l2^2 / 2, over K = 2
  const double vc = l2 * l2 / 3.0;        // var(l2, 2 l2, 3 l2) = l2^2, over K = 3
  const double df = (vb + vc) * (vb + vc) / (vb * vb / 1.0 + vc * vc / 2.0);
  EXPECT_NEAR(r->degrees_of_freedom, df, 1e-9);
  EXPECT_NEAR(r->interval.ratio, std::exp(d), 1e-12);
  const double half = t_975(df) * std::sqrt(vb + vc);
  EXPECT_NEAR(r->interval.lower, std::exp(d - half), 1e-9);
  EXPECT_NEAR(r->interval.upper, std::exp(d + half), 1e-9);
  const boost::math::students_t law(df);
  EXPECT_NEAR(r->p_value, 2.0 * boost::math::cdf(boost::math::complement(law, d / std::sqrt(vb + vc))), 1e-12);
}

TEST(HierarchicalRatio, OneProcessOnEitherSideIsTheSampleLevelComparison) {
  std::mt19937_64 engine(9);
  const Groups base = simulate(engine, 1, 40, 0.0, 0.02);
  const Groups cand = simulate(engine, 4, 10, 0.0, 0.02);
  const auto r = gbx::hierarchical_ratio(base, cand, 0.0, 0.0);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->process_level);
  EXPECT_EQ(r->test, "mann-whitney");
  std::vector<double> pooled;
  for (const auto& g : cand) pooled.insert(pooled.end(), g.begin(), g.end());
  const auto direct = gbx::median_ratio_interval(base[0], pooled);
  EXPECT_EQ(r->interval.lower, direct->lower);
  EXPECT_EQ(r->interval.upper, direct->upper);
  EXPECT_EQ(r->p_value, gbx::mann_whitney(base[0], pooled).p_value);
}

TEST(HierarchicalRatio, QuantizedSidesAreWidenedByTheirHalfTicks) {
  const Groups base(4, std::vector<double>(10, 4e-6));
  const Groups cand(4, std::vector<double>(10, 5e-6));
  const auto r = gbx::hierarchical_ratio(base, cand, 1e-6, 2e-6);
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->interval.ratio, 1.25, 1e-12);
  EXPECT_NEAR(r->interval.lower, 1.25 * (1.0 - 1.0 / 5.0) / (1.0 + 0.5 / 4.0), 1e-12);
  EXPECT_NEAR(r->interval.upper, 1.25 * (1.0 + 1.0 / 5.0) / (1.0 - 0.5 / 4.0), 1e-12);
  const auto single =
      gbx::hierarchical_ratio({std::vector<double>(10, 4e-6)}, {std::vector<double>(10, 4e-6)}, 1e-6, 1e-6);
  ASSERT_TRUE(single);
  EXPECT_LT(single->interval.lower, 1.0);
  EXPECT_GT(single->interval.upper, 1.0);
  EXPECT_FALSE(gbx::hierarchical_ratio({}, cand, 0.0, 0.0));
}

}  // namespace

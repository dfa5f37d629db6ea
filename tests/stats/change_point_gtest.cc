// Change points in a series of run medians (stats/change_point.h): the energy statistic against
// hand-computed values, planted steps found where they are, steps inside the runs' intervals and
// flat series left alone, and the detection and false-alarm rates over seeded synthetic histories.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "stats/change_point.h"

namespace {

struct Series {
  std::vector<double> medians, lower, upper;
};

// Runs with medians around 1 (relative noise sd), a step of `step` from run `at` on (none when at is
// 0), each with an interval of +/- half_width around its median.
Series synthetic(std::size_t runs, std::size_t at, double step, double sd, double half_width, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(0.0, sd);
  Series s;
  for (std::size_t i = 0; i < runs; ++i) {
    const double m = (at > 0 && i >= at ? 1.0 + step : 1.0) * (1.0 + noise(rng));
    s.medians.push_back(m);
    s.lower.push_back(m * (1.0 - half_width));
    s.upper.push_back(m * (1.0 + half_width));
  }
  return s;
}

std::vector<gbx::ChangePoint> detect(const Series& s, std::uint64_t seed = 7) {
  return gbx::detect_change_points(s.medians, s.lower, s.upper, 0.05, seed);
}

TEST(EnergyStatistic, MatchesHandComputedValues) {
  // [1 1 | 3 3]: between 2/(2*2) * (4 * 2) = 4, both within-terms 0; Q = 2*2/4 * 4 = 4.
  EXPECT_DOUBLE_EQ(gbx::energy_statistic({1, 1, 3, 3}, 0, 2, 4), 4.0);
  // [0 | 1 3]: between 2/2 * (1 + 3) = 4, within right |1-3| / C(2,2) = 2; Q = 1*2/3 * (4 - 2) = 4/3.
  EXPECT_DOUBLE_EQ(gbx::energy_statistic({0, 1, 3}, 0, 1, 3), 4.0 / 3.0);
  // [0 1 | 3] within [9, 0, 1, 3, 9]: left |0-1| / 1 = 1, between 2/2 * (3 + 2) = 5; Q = 2/3 * (5 - 1) = 8/3.
  EXPECT_DOUBLE_EQ(gbx::energy_statistic({9, 0, 1, 3, 9}, 1, 3, 4), 8.0 / 3.0);
  EXPECT_DOUBLE_EQ(gbx::energy_statistic({2, 2, 2}, 0, 1, 3), 0.0);
  EXPECT_THROW(gbx::energy_statistic({1, 2}, 0, 0, 2), std::invalid_argument);
  EXPECT_THROW(gbx::energy_statistic({1, 2}, 0, 1, 3), std::invalid_argument);
}

TEST(ChangePoints, APlantedStepIsFoundWithItsMediansAndChange) {
  Series s;
  for (int i = 0; i < 16; ++i) {
    const double m = (i < 9 ? 100.0 : 108.0) + (i % 3 - 1) * 0.2;  // +/-0.2 wobble, a step of 8% at run 9
    s.medians.push_back(m);
    s.lower.push_back(m - 0.5);
    s.upper.push_back(m + 0.5);
  }
  const auto points = detect(s);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].index, 9u);
  EXPECT_DOUBLE_EQ(points[0].before_median, 100.0);
  EXPECT_DOUBLE_EQ(points[0].after_median, 108.0);
  EXPECT_NEAR(points[0].relative_change, 0.08, 1e-12);
  EXPECT_LT(points[0].p_value, 0.05);
  EXPECT_GT(points[0].p_value, 0.0);
}

TEST(ChangePoints, AStepInsideTheRunsIntervalsIsNoChange) {
  Series s;
  for (int i = 0; i < 16; ++i) {
    const double m = i < 9 ? 100.0 : 101.0;  // perfectly regular, but each run is known only to +/-3
    s.medians.push_back(m);
    s.lower.push_back(m - 3.0);
    s.upper.push_back(m + 3.0);
  }
  EXPECT_TRUE(detect(s).empty());
  for (auto& l : s.lower) l += 2.5;  // +/-0.5: now the step exceeds the runs' noise
  for (auto& u : s.upper) u -= 2.5;
  ASSERT_EQ(detect(s).size(), 1u);
  EXPECT_EQ(detect(s)[0].index, 9u);
}

TEST(ChangePoints, TwoStepsAreBothFound) {
  Series s;
  for (int i = 0; i < 24; ++i) {
    const double m = (i < 8 ? 10.0 : i < 16 ? 12.0 : 9.0) + (i % 2) * 0.05;
    s.medians.push_back(m);
    s.lower.push_back(m - 0.1);
    s.upper.push_back(m + 0.1);
  }
  const auto points = detect(s);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].index, 8u);
  EXPECT_EQ(points[1].index, 16u);
  EXPECT_LT(points[1].relative_change, 0.0) << "faster from run 16";
}

TEST(ChangePoints, ABumpInTheMiddleIsFoundOnBothSides) {
  // Low, high, low: split once with "after" running to the end, the bump hides in its own level;
  // the kappa search of Matteson and James finds it.
  Series s;
  for (int i = 0; i < 18; ++i) {
    const double m = i >= 6 && i < 12 ? 1.2 : 1.0;
    s.medians.push_back(m);
    s.lower.push_back(m - 0.01);
    s.upper.push_back(m + 0.01);
  }
  const auto points = detect(s);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].index, 6u);
  EXPECT_EQ(points[1].index, 12u);
  EXPECT_NEAR(points[0].relative_change, 0.2, 1e-12);
  EXPECT_NEAR(points[1].relative_change, 1.0 / 1.2 - 1.0, 1e-12);
}

TEST(ChangePoints, ShortOrFlatSeriesHaveNone) {
  EXPECT_TRUE(gbx::detect_change_points({1, 2}, {1, 2}, {1, 2}, 0.05, 1).empty());
  EXPECT_TRUE(gbx::detect_change_points({5, 5, 5, 5, 5, 5, 5, 5}, std::vector<double>(8, 4.9),
                                        std::vector<double>(8, 5.1), 0.05, 1)
                  .empty());
  EXPECT_THROW(gbx::detect_change_points({1, 2, 3}, {1, 2}, {1, 2, 3}, 0.05, 1), std::invalid_argument);
  EXPECT_THROW(gbx::detect_change_points({1, NAN, 3}, {1, 2, 3}, {1, 2, 3}, 0.05, 1), std::invalid_argument);
}

TEST(ChangePoints, TheSameSeedGivesTheSameAnswer) {
  std::mt19937_64 rng(3);
  const Series s = synthetic(20, 10, 0.03, 0.01, 0.01, rng);
  const auto a = detect(s, 11);
  const auto b = detect(s, 11);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].p_value, b[i].p_value);
  }
}

// Loose bounds on seeded runs; bench/change_point_rates prints the rates over more settings.
TEST(ChangePoints, DetectionAndFalseAlarmRatesOnSyntheticHistories) {
  std::mt19937_64 rng(2026);
  std::uniform_int_distribution<std::size_t> position(5, 15);
  const int trials = 200;
  int detected = 0;
  int false_alarms = 0;
  for (int t = 0; t < trials; ++t) {
    // 20 runs, 1% run-to-run noise, intervals of +/-1%, a 5% step somewhere in the middle.
    const std::size_t at = position(rng);
    const auto with_step = detect(synthetic(20, at, 0.05, 0.01, 0.01, rng), static_cast<std::uint64_t>(t));
    for (const auto& p : with_step) {
      if (p.index + 1 >= at && p.index <= at + 1) {
        ++detected;
        break;
      }
    }
    if (!detect(synthetic(20, 0, 0.0, 0.01, 0.01, rng), static_cast<std::uint64_t>(t)).empty()) ++false_alarms;
  }
  const double detection_rate = static_cast<double>(detected) / trials;
  const double false_alarm_rate = static_cast<double>(false_alarms) / trials;
  RecordProperty("detection_rate", std::to_string(detection_rate));
  RecordProperty("false_alarm_rate", std::to_string(false_alarm_rate));
  EXPECT_GE(detection_rate, 0.9);
  EXPECT_LE(false_alarm_rate, 0.1);
}

}  // namespace

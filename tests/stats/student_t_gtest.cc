// Student t interval for the mean, against hand computation and Boost's t quantiles.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/distributions/students_t.hpp>

#include "stats/statistics.h"

namespace gbx {
namespace {

TEST(StudentT, HandComputedThreeSamples) {
  // {1, 2, 3}: mean 2, stddev 1, n = 3. t(0.975, 2) = 4.302652730 (tables: 4.303), so the half
  // width is 4.302652730 / sqrt(3) = 2.484137712: [-0.484137712, 4.484137712].
  const std::optional<detail::Interval> interval = student_t_interval({3, 1, 2});
  ASSERT_TRUE(interval);
  EXPECT_NEAR(interval->lower, -0.484137712, 1e-9);
  EXPECT_NEAR(interval->upper, 4.484137712, 1e-9);
  EXPECT_DOUBLE_EQ(interval->level, 0.95);
  EXPECT_EQ(interval->method, "student t");
}

TEST(StudentT, MatchesBoostQuantiles) {
  // {2, 4, 4, 4, 5, 5, 7, 9}: mean 5, stddev sqrt(32 / 7), n = 8, 7 degrees of freedom.
  const std::vector<double> samples{2, 4, 4, 4, 5, 5, 7, 9};
  const double standard_error = std::sqrt(32.0 / 7.0) / std::sqrt(8.0);
  const boost::math::students_t t7(7.0);
  for (double level : {0.8, 0.9, 0.95, 0.99}) {
    const double t = boost::math::quantile(t7, 1.0 - (1.0 - level) / 2.0);
    const std::optional<detail::Interval> interval = student_t_interval(samples, level);
    ASSERT_TRUE(interval);
    EXPECT_NEAR(interval->lower, 5.0 - t * standard_error, 1e-12) << level;
    EXPECT_NEAR(interval->upper, 5.0 + t * standard_error, 1e-12) << level;
  }
  // The 95% case by hand: t(0.975, 7) = 2.364624251 (tables: 2.365); 2.364624251 * 0.7559289460
  // = 1.787487918, so [3.212512082, 6.787487918] (scipy.stats.t.interval agrees).
  const std::optional<detail::Interval> interval = student_t_interval(samples);
  EXPECT_NEAR(interval->lower, 3.212512082, 1e-9);
  EXPECT_NEAR(interval->upper, 6.787487918, 1e-9);
}

TEST(StudentT, DegenerateInputs) {
  EXPECT_FALSE(student_t_interval({}));
  EXPECT_FALSE(student_t_interval({1.0}));
  EXPECT_FALSE(student_t_interval({1.0, 2.0}, 1.0));
  EXPECT_FALSE(student_t_interval({1.0, 2.0}, 0.0));
  EXPECT_FALSE(student_t_interval({1.0, std::nan("")}));
  // Constant data: zero width, not NaN.
  const std::optional<detail::Interval> constant = student_t_interval({4.0, 4.0, 4.0});
  ASSERT_TRUE(constant);
  EXPECT_EQ(constant->lower, 4.0);
  EXPECT_EQ(constant->upper, 4.0);
}

}  // namespace
}  // namespace gbx

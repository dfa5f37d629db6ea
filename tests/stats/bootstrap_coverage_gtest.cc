// Coverage of the BCa 95% interval for the median: over seeded trials from distributions whose median
// is known, the interval must contain the true median in 93% to 97% of trials.
//
// The intervals come from the median's exact bootstrap distribution (the default), so there is no
// Monte-Carlo error in the endpoints. With T trials the coverage estimate itself has a standard
// deviation of sqrt(0.95 * 0.05 / T): 0.34% at T = 4,000 (about 1 s per case).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/distributions/normal.hpp>

#include "stats/bootstrap.h"

namespace gbx {
namespace {

constexpr std::size_t kTrials = 4000;

const boost::math::normal_distribution<double> kNormal;

// A standard normal draw by inversion: the same on every standard library, unlike
// std::normal_distribution.
double standard_normal(std::mt19937_64& engine) {
  const double uniform = (static_cast<double>(engine() >> 11) + 0.5) * 0x1p-53;  // in (0, 1)
  return boost::math::quantile(kNormal, uniform);
}

// Lognormal(0, 0.5): median exp(0) = 1.
double lognormal(std::mt19937_64& engine) { return std::exp(0.5 * standard_normal(engine)); }

// Two modes, as a benchmark that sometimes takes a slow path: 0.65 Normal(1, 0.1) + 0.35 Normal(1.6, 0.15).
constexpr double kFastWeight = 0.65;
double bimodal(std::mt19937_64& engine) {
  const bool fast = (static_cast<double>(engine() >> 11) * 0x1p-53) < kFastWeight;
  const double z = standard_normal(engine);
  return fast ? 1.0 + 0.1 * z : 1.6 + 0.15 * z;
}

// The mixture's median by bisection on its CDF (to 1e-12; the CDF is increasing).
double bimodal_median() {
  const auto cdf = [](double x) {
    return kFastWeight * boost::math::cdf(kNormal, (x - 1.0) / 0.1) +
           (1.0 - kFastWeight) * boost::math::cdf(kNormal, (x - 1.6) / 0.15);
  };
  double low = 0.0;
  double high = 3.0;
  while (high - low > 1e-12) {
    const double middle = 0.5 * (low + high);
    (cdf(middle) < 0.5 ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

double coverage(const char* name, const std::function<double(std::mt19937_64&)>& draw, double true_median,
                std::size_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::size_t covered = 0;
  std::size_t degenerate = 0;
  double width = 0.0;
  for (std::size_t trial = 0; trial < kTrials; ++trial) {
    std::vector<double> samples(n);
    for (double& sample : samples) sample = draw(engine);
    const BootstrapResult result = bootstrap_interval(samples, BootstrapStatistic::median);
    EXPECT_TRUE(result.interval);
    EXPECT_EQ(result.distribution, BootstrapDistribution::exact);
    if (!result.interval) continue;
    covered += result.interval->lower <= true_median && true_median <= result.interval->upper ? 1 : 0;
    degenerate += result.degenerate ? 1 : 0;
    width += result.interval->upper - result.interval->lower;
  }
  const double fraction = static_cast<double>(covered) / static_cast<double>(kTrials);
  std::printf(
      "BCa 95%% median coverage, %s, n = %zu: %.1f%% of %zu trials (exact bootstrap distribution; mean width "
      "%.4f; %zu degenerate)\n",
      name, n, 100.0 * fraction, kTrials, width / static_cast<double>(kTrials), degenerate);
  return fraction;
}

TEST(BcaCoverage, MixtureMedianByBisection) {
  // At the median the two components' CDFs must balance: check the bisection against Boost directly.
  const double median = bimodal_median();
  EXPECT_NEAR(kFastWeight * boost::math::cdf(kNormal, (median - 1.0) / 0.1) +
                  (1.0 - kFastWeight) * boost::math::cdf(kNormal, (median - 1.6) / 0.15),
              0.5, 1e-10);
  std::printf("mixture median %.6f\n", median);
}

TEST(BcaCoverage, LognormalThirty) {
  const double fraction = coverage("lognormal", lognormal, 1.0, 30, 1000);
  EXPECT_GE(fraction, 0.93);
  EXPECT_LE(fraction, 0.97);
}

TEST(BcaCoverage, LognormalTwoHundred) {
  const double fraction = coverage("lognormal", lognormal, 1.0, 200, 2000);
  EXPECT_GE(fraction, 0.93);
  EXPECT_LE(fraction, 0.97);
}

TEST(BcaCoverage, BimodalThirty) {
  const double fraction = coverage("bimodal", bimodal, bimodal_median(), 30, 3000);
  EXPECT_GE(fraction, 0.93);
  EXPECT_LE(fraction, 0.97);
}

TEST(BcaCoverage, BimodalTwoHundred) {
  const double fraction = coverage("bimodal", bimodal, bimodal_median(), 200, 4000);
  EXPECT_GE(fraction, 0.93);
  EXPECT_LE(fraction, 0.97);
}

}  // namespace
}  // namespace gbx

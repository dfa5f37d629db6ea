// The mean's saddlepoint approximation (bootstrap.cc): its checks, its CDF and quantile against large
// Monte-Carlo runs, and BCa intervals from it at the edges of where it is used (n at
// kSaddlepointMinSamples, lumpiness just under kSaddlepointLumpRatio, heavy tails).
//
// The criterion for BCa: our bound e, placed in a Monte-Carlo distribution of B = 400,000 resamples,
// must sit at our adjusted percentile alpha within 4 standard deviations of that distribution's CDF,
// sqrt(alpha (1 - alpha) / B), plus half the Monte-Carlo error of the 10,000-resample BCa that the
// saddlepoint replaces (CDF and z0 terms; see bca_reference_gtest.cc). That is: the approximation
// errs, on the probability scale, by less than half of what the default Monte Carlo would.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/distributions/normal.hpp>

#include "stats/bootstrap.h"
#include "tests/support/bca_error.h"
#include "tests/support/random_samples.h"

namespace gbx {
namespace {

using gbx_test::lognormal_samples;

std::vector<double> student_t(std::size_t n, double degrees, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::student_t_distribution<double> distribution(degrees);
  std::vector<double> samples(n);
  for (double& sample : samples) sample = distribution(engine);
  return samples;
}

// Lognormal(0, 0.25) timings with one sample `height` times the typical one in place of the first.
std::vector<double> with_spike(std::size_t n, double height, std::uint64_t seed) {
  std::vector<double> samples = lognormal_samples(n, 0.25, seed);
  samples[0] = height;
  return samples;
}

TEST(SaddlepointCheck, RefusesWhatItCannotApproximate) {
  EXPECT_TRUE(saddlepoint_mean_check(lognormal_samples(kSaddlepointMinSamples - 1, 0.5, 1)));
  EXPECT_FALSE(saddlepoint_mean_check(lognormal_samples(kSaddlepointMinSamples, 0.5, 1)));
  EXPECT_FALSE(saddlepoint_mean_check(lognormal_samples(1000, 0.25, 1)));
  // A timer's lattice: three values, 1,000 samples. The resampled sum moves in whole steps of 1, 4%
  // of its standard deviation: refused, while 20 values (a step of 1% of it) are not.
  std::mt19937_64 engine(2);
  std::vector<double> three(1000);
  std::vector<double> twenty(1000);
  std::uniform_int_distribution<int> three_values(20, 22);
  std::uniform_int_distribution<int> twenty_values(0, 19);
  for (double& value : three) value = three_values(engine);
  for (double& value : twenty) value = twenty_values(engine);
  EXPECT_EQ(saddlepoint_mean_lumpiness(three), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(saddlepoint_mean_check(three));
  EXPECT_FALSE(saddlepoint_mean_check(twenty));
  // One sample 20 times the rest among 1,000: the resampled mean comes in lumps (how many times it
  // was drawn) further apart than the rest spreads them.
  EXPECT_GT(*saddlepoint_mean_lumpiness(with_spike(1000, 20.0, 3)), kSaddlepointLumpRatio);
  EXPECT_TRUE(saddlepoint_mean_check(with_spike(1000, 20.0, 3)));
  EXPECT_LT(*saddlepoint_mean_lumpiness(with_spike(1000, 8.0, 3)), kSaddlepointLumpRatio);
  EXPECT_FALSE(saddlepoint_mean_check(with_spike(1000, 8.0, 3)));
  // Refused means fall back to Monte Carlo.
  const BootstrapResult result = bootstrap_interval(with_spike(1000, 20.0, 3), BootstrapStatistic::mean);
  EXPECT_EQ(result.distribution, BootstrapDistribution::monte_carlo);
  EXPECT_EQ(result.resamples, 10000u);
  EXPECT_TRUE(saddlepoint_mean_check({}));
  EXPECT_TRUE(saddlepoint_mean_check(std::vector<double>(200, 1.0)));
  EXPECT_FALSE(saddlepoint_mean_lumpiness(std::vector<double>(200, 1.0)));
}

TEST(Saddlepoint, QuantileInvertsTheCdf) {
  for (const std::vector<double>& samples : {lognormal_samples(100, 1.0, 4), with_spike(1000, 14.0, 5)}) {
    double previous = 0.0;
    for (double p : {1e-6, 0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999, 1 - 1e-6}) {
      const double x = *saddlepoint_mean_quantile(samples, p);
      EXPECT_NEAR(*saddlepoint_mean_cdf(samples, x), p, 1e-10) << p;
      EXPECT_GT(x, previous);
      previous = x;
    }
    // Smooth through the estimate, where Lugannani-Rice's two terms cancel and are interpolated.
    double mean = 0.0;
    for (double value : samples) mean += value / static_cast<double>(samples.size());
    const double at = *saddlepoint_mean_cdf(samples, mean);
    for (double offset : {1e-12, 1e-9, 1e-7, 1e-5}) {
      const double above = *saddlepoint_mean_cdf(samples, mean + offset);
      const double below = *saddlepoint_mean_cdf(samples, mean - offset);
      EXPECT_GE(above, at - 1e-12) << offset;
      EXPECT_LE(below, at + 1e-12) << offset;
      EXPECT_LT(above - below, 1e-3) << offset;
    }
  }
  EXPECT_FALSE(saddlepoint_mean_quantile(lognormal_samples(100, 1.0, 4), 1.0));
  EXPECT_EQ(*saddlepoint_mean_cdf({1.0, 2.0, 3.0}, 0.5), 0.0);
  EXPECT_EQ(*saddlepoint_mean_cdf({1.0, 2.0, 3.0}, 3.5), 1.0);
}

TEST(Saddlepoint, CdfAgreesWithLargeMonteCarlo) {
  // Dvoretzky-Kiefer-Wolfowitz as in bootstrap_exact_gtest.cc, at 400,000 resamples: 0.0042.
  constexpr std::size_t kResamples = 400000;
  const double bound = std::sqrt(std::log(2.0 / 1e-6) / (2.0 * kResamples));
  for (const std::vector<double>& samples : {lognormal_samples(100, 1.0, 6), lognormal_samples(1000, 0.25, 7)}) {
    std::vector<double> drawn = bootstrap_distribution(samples, BootstrapStatistic::mean, kResamples, 8);
    std::sort(drawn.begin(), drawn.end());
    double largest = 0.0;
    for (double p = 0.001; p < 1.0; p += 0.001) {
      const double x = *saddlepoint_mean_quantile(samples, p);
      const double drawn_p =
          static_cast<double>(std::upper_bound(drawn.begin(), drawn.end(), x) - drawn.begin()) / kResamples;
      largest = std::max(largest, std::abs(drawn_p - p));
    }
    std::printf("n = %zu: sup |F_saddlepoint - F_MC| over 999 quantiles = %.4f (bound %.4f)\n", samples.size(), largest,
                bound);
    EXPECT_LE(largest, bound);
  }
}

// The Monte-Carlo standard deviation, in probability, of a B-resample BCa bound at alpha (as in
// bca_reference_gtest.cc: the drawn CDF, and z0 moving alpha).
double bca_error(double alpha, double z0, double acceleration, double tail, double resamples) {
  return std::sqrt(gbx_test::bca_bound_variance_per_resample(alpha, z0, acceleration, tail) / resamples);
}

TEST(Saddlepoint, BcaAgreesWithLargeMonteCarloAtTheEdges) {
  constexpr std::size_t kResamples = 400000;
  // The spike with the largest lumpiness still accepted, on a grid of heights.
  double height = 2.0;
  for (double h = 2.0; h < 40.0; h += 0.25) {
    if (*saddlepoint_mean_lumpiness(with_spike(1000, h, 10)) <= kSaddlepointLumpRatio) height = h;
  }
  struct Case {
    std::string name;
    std::vector<double> samples;
  };
  const Case cases[] = {
      {"lognormal_samples(0, 1), n at the minimum", lognormal_samples(kSaddlepointMinSamples, 1.0, 11)},
      {"exponential-like lognormal_samples(0, 1.5), n = 200", lognormal_samples(200, 1.5, 12)},
      {"Student t 2.5, n = 100 (heavy tails)", student_t(100, 2.5, 13)},
      {"spike at the lumpiness limit, n = 1000", with_spike(1000, height, 10)},
  };
  for (const Case& c : cases) {
    const BootstrapResult result = bootstrap_interval(c.samples, BootstrapStatistic::mean);
    ASSERT_TRUE(result.interval);
    ASSERT_EQ(result.distribution, BootstrapDistribution::saddlepoint) << c.name;
    ASSERT_TRUE(result.bias_correction && result.acceleration);
    std::vector<double> drawn = bootstrap_distribution(c.samples, BootstrapStatistic::mean, kResamples, 14);
    std::sort(drawn.begin(), drawn.end());
    const double lumpiness = *saddlepoint_mean_lumpiness(c.samples);
    for (const auto& [bound, alpha, tail] : {std::make_tuple(result.interval->lower, result.lower_percentile, 0.025),
                                             std::make_tuple(result.interval->upper, result.upper_percentile, 0.975)}) {
      const double drawn_p =
          static_cast<double>(std::lower_bound(drawn.begin(), drawn.end(), bound) - drawn.begin()) / kResamples;
      const double tolerance = 4.0 * std::sqrt(alpha * (1.0 - alpha) / kResamples) +
                               0.5 * bca_error(alpha, *result.bias_correction, *result.acceleration, tail, 10000.0);
      std::printf("%-44s lumpiness %.2f: alpha %.4f, bound at %.4f of %zu resamples (tolerance %.4f)\n", c.name.c_str(),
                  lumpiness, alpha, drawn_p, kResamples, tolerance);
      EXPECT_NEAR(drawn_p, alpha, tolerance) << c.name;
    }
  }
}

}  // namespace
}  // namespace gbx

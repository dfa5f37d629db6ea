// The median's exact bootstrap distribution (exact_median_distribution, see bootstrap.cc): against
// the enumeration of all n^n resamples for n <= 7, against 200,000 Monte-Carlo resamples near n = 50,
// and BCa and percentile intervals read off it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/distributions/normal.hpp>

#include "stats/bootstrap.h"
#include "tests/support/random_samples.h"

namespace gbx {
namespace {

std::vector<double> lognormal(std::size_t n, std::uint64_t seed) { return gbx_test::lognormal_samples(n, 0.5, seed); }

// The type 7 median as numpy takes it (and as the Monte-Carlo path does).
double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * values[n / 2 - 1] + 0.5 * values[n / 2];
}

// P(theta* <= value) from the atoms.
double cdf_at(const std::vector<BootstrapAtom>& atoms, double value) {
  double sum = 0.0;
  for (const BootstrapAtom& atom : atoms) {
    if (atom.value <= value) sum += atom.probability;
  }
  return sum;
}

TEST(ExactMedian, MatchesEveryResampleEnumerated) {
  const std::vector<std::vector<double>> datasets = {
      {5},
      {2, 1},
      {1, 2, 3},
      {3, 1, 4, 2},
      {1, 2, 2, 3},
      {5, 1, 4, 2, 3},
      {1, 1, 2, 2, 2},
      {1, 2, 3, 4, 5, 6},
      {1, 2, 2, 3, 5, 5},  // ties, even n: pairs of distinct and equal middle values
      {1, 1, 1, 2, 2, 9},
      {0.1, 0.7, 0.2, 0.3, 0.6, 0.4, 0.5},
      {2, 2, 2, 2, 1, 3, 3},
  };
  for (const std::vector<double>& samples : datasets) {
    const std::size_t n = samples.size();
    // Every index tuple once: counts per median value, exact integers until the final division.
    std::map<double, std::uint64_t> counts;
    std::vector<std::size_t> index(n, 0);
    std::vector<double> resample(n);
    for (;;) {
      for (std::size_t i = 0; i < n; ++i) resample[i] = samples[index[i]];
      ++counts[median_of(resample)];
      std::size_t digit = 0;
      while (digit < n && ++index[digit] == n) index[digit++] = 0;
      if (digit == n) break;
    }
    const double total = std::pow(static_cast<double>(n), static_cast<double>(n));
    const std::vector<BootstrapAtom> atoms = exact_median_distribution(samples);
    ASSERT_EQ(atoms.size(), counts.size()) << "n = " << n;
    std::size_t a = 0;
    for (const auto& [value, count] : counts) {
      EXPECT_EQ(atoms[a].value, value) << "n = " << n;
      EXPECT_NEAR(atoms[a].probability, static_cast<double>(count) / total, 1e-14) << "n = " << n << ", " << value;
      ++a;
    }
  }
}

TEST(ExactMedian, AgreesWithMonteCarloNearFifty) {
  // Dvoretzky-Kiefer-Wolfowitz: sup |F_B - F| <= sqrt(ln(2 / delta) / (2 B)) but with probability delta.
  constexpr std::size_t kResamples = 200000;
  const double bound = std::sqrt(std::log(2.0 / 1e-6) / (2.0 * kResamples));
  std::vector<double> tied = lognormal(48, 7);
  for (double& value : tied) value = std::round(value * 8.0) / 8.0;  // a coarse timer: many ties
  for (const std::vector<double>& samples : {lognormal(50, 5), lognormal(51, 6), tied}) {
    const std::vector<BootstrapAtom> atoms = exact_median_distribution(samples);
    std::vector<double> drawn = bootstrap_distribution(samples, BootstrapStatistic::median, kResamples, 11);
    std::sort(drawn.begin(), drawn.end());
    double cumulative = 0.0;
    double largest = 0.0;
    double exact_mean = 0.0;
    for (const BootstrapAtom& atom : atoms) {
      cumulative += atom.probability;
      exact_mean += atom.value * atom.probability;
      const auto through = std::upper_bound(drawn.begin(), drawn.end(), atom.value) - drawn.begin();
      largest = std::max(largest, std::abs(static_cast<double>(through) / kResamples - cumulative));
      // Every drawn median is an atom.
    }
    std::size_t outside = 0;
    double drawn_mean = 0.0;
    double drawn_squares = 0.0;
    for (double value : drawn) {
      const auto at = std::lower_bound(atoms.begin(), atoms.end(), value,
                                       [](const BootstrapAtom& atom, double v) { return atom.value < v; });
      outside += at == atoms.end() || at->value != value ? 1 : 0;
      drawn_mean += value / kResamples;
      drawn_squares += value * value / kResamples;
    }
    const double standard_error = std::sqrt((drawn_squares - drawn_mean * drawn_mean) / kResamples);
    std::printf("n = %zu: %zu atoms, sup |F_exact - F_MC| = %.4f (bound %.4f); means %.6f, %.6f (se %.2g)\n",
                samples.size(), atoms.size(), largest, bound, exact_mean, drawn_mean, standard_error);
    EXPECT_LE(largest, bound) << samples.size();
    // Atoms below 1e-17 are left out: none can have been drawn.
    EXPECT_EQ(outside, 0u) << samples.size();
    EXPECT_NEAR(drawn_mean, exact_mean, 5.0 * standard_error) << samples.size();
  }
}

TEST(ExactMedian, ProbabilitiesAreAWholeLaw) {
  for (std::size_t n : {2u, 3u, 10u, 101u, 1000u, 1001u, 20000u}) {
    const std::vector<BootstrapAtom> atoms = exact_median_distribution(lognormal(n, n));
    double total = 0.0;
    for (std::size_t a = 0; a < atoms.size(); ++a) {
      EXPECT_GT(atoms[a].probability, 0.0);
      if (a > 0) {
        EXPECT_LT(atoms[a - 1].value, atoms[a].value);
      }
      total += atoms[a].probability;
    }
    // What is left out is below 1e-14 in all; the quadrature adds up to 1e-11 at n = 20,000.
    EXPECT_NEAR(total, 1.0, 1e-10) << n;
  }
  EXPECT_TRUE(exact_median_distribution({}).empty());
  EXPECT_TRUE(exact_median_distribution({1.0, std::nan("")}).empty());
  // n = 2: x1 (both draws x1), the midpoint (one of each, two orders), x2.
  const std::vector<BootstrapAtom> two = exact_median_distribution({3.0, 1.0});
  ASSERT_EQ(two.size(), 3u);
  EXPECT_EQ(two[1].value, 2.0);
  EXPECT_NEAR(two[0].probability, 0.25, 1e-15);
  EXPECT_NEAR(two[1].probability, 0.5, 1e-15);
  // 100 ones and a 2: the median is 2 only if 51 of 101 draws hit the 2, about 1e-70: left out.
  std::vector<double> lopsided(100, 1.0);
  lopsided.push_back(2.0);
  const std::vector<BootstrapAtom> one = exact_median_distribution(lopsided);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].value, 1.0);
  EXPECT_NEAR(one[0].probability, 1.0, 1e-13);
}

TEST(ExactMedian, IntervalsAreReadOffTheLaw) {
  for (const std::vector<double>& samples : {lognormal(200, 1), lognormal(201, 2)}) {
    const std::vector<BootstrapAtom> atoms = exact_median_distribution(samples);
    for (BootstrapMethod method : {BootstrapMethod::percentile, BootstrapMethod::bca}) {
      BootstrapOptions options;
      options.method = method;
      const BootstrapResult result = bootstrap_interval(samples, BootstrapStatistic::median, options);
      ASSERT_TRUE(result.interval);
      EXPECT_EQ(result.distribution, BootstrapDistribution::exact);
      EXPECT_EQ(result.method, method);
      // Each bound is the smallest atom whose CDF reaches the percentile.
      for (const auto& [bound, p] : {std::make_pair(result.interval->lower, result.lower_percentile),
                                     std::make_pair(result.interval->upper, result.upper_percentile)}) {
        const auto at = std::find_if(atoms.begin(), atoms.end(),
                                     [value = bound](const BootstrapAtom& a) { return a.value == value; });
        ASSERT_NE(at, atoms.end());
        EXPECT_GE(cdf_at(atoms, bound), p);
        EXPECT_LT(cdf_at(atoms, bound) - at->probability, p);
      }
      if (method == BootstrapMethod::bca) {
        // z0 from the mid-rank: P(< estimate) + P(= estimate) / 2.
        const auto at = std::find_if(atoms.begin(), atoms.end(),
                                     [&](const BootstrapAtom& a) { return a.value == result.estimate; });
        ASSERT_NE(at, atoms.end());
        const double fraction = cdf_at(atoms, result.estimate) - 0.5 * at->probability;
        const boost::math::normal_distribution<double> normal;
        ASSERT_TRUE(result.bias_correction);
        EXPECT_NEAR(*result.bias_correction, boost::math::quantile(normal, fraction), 1e-9);
      }
    }
  }
}

TEST(ExactMedian, BcaAgreesWithLargeMonteCarlo) {
  // The exact interval placed in 200,000 Monte-Carlo resamples: each bound must sit where its
  // percentile says, to within 5 standard deviations of a drawn CDF (being an atom, anywhere between
  // its two CDF values); z0 likewise against the drawn mid-rank.
  constexpr std::size_t kResamples = 200000;
  std::vector<double> tied = lognormal(300, 9);
  for (double& value : tied) value = std::round(value * 20.0) / 20.0;
  for (const std::vector<double>& samples : {lognormal(400, 3), lognormal(401, 4), tied}) {
    const BootstrapResult exact = bootstrap_interval(samples, BootstrapStatistic::median);
    ASSERT_TRUE(exact.interval && exact.bias_correction);
    std::vector<double> drawn = bootstrap_distribution(samples, BootstrapStatistic::median, kResamples, 5);
    std::sort(drawn.begin(), drawn.end());
    const auto rank = [&](double value) {
      return std::make_pair(
          static_cast<double>(std::lower_bound(drawn.begin(), drawn.end(), value) - drawn.begin()) / kResamples,
          static_cast<double>(std::upper_bound(drawn.begin(), drawn.end(), value) - drawn.begin()) / kResamples);
    };
    const auto [below, through] = rank(exact.estimate);
    const boost::math::normal_distribution<double> normal;
    const double drawn_z0 = boost::math::quantile(normal, 0.5 * (below + through));
    std::printf("n = %zu: exact [%.6g, %.6g] at %.4f, %.4f, z0 %.4f; drawn z0 %.4f\n", samples.size(),
                exact.interval->lower, exact.interval->upper, exact.lower_percentile, exact.upper_percentile,
                *exact.bias_correction, drawn_z0);
    // z0's standard error is sqrt(f (1 - f) / B) / phi(z0), at most 1.2533 / sqrt(B).
    EXPECT_NEAR(*exact.bias_correction, drawn_z0, 5.0 * 1.2533 / std::sqrt(kResamples)) << samples.size();
    for (const auto& [bound, p] : {std::make_pair(exact.interval->lower, exact.lower_percentile),
                                   std::make_pair(exact.interval->upper, exact.upper_percentile)}) {
      const auto [bound_below, bound_through] = rank(bound);
      const double slack = 5.0 * std::sqrt(p * (1.0 - p) / kResamples);
      EXPECT_GE(p, bound_below - slack) << samples.size();
      EXPECT_LE(p, bound_through + slack) << samples.size();
    }
  }
}

}  // namespace
}  // namespace gbx

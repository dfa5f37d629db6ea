// BCa intervals against scipy.stats.bootstrap. The references come from make_bca_reference.py here:
//   /usr/bin/python3 tests/stats/make_bca_reference.py
// which calls, for each dataset and statistic (np.median or np.mean),
//   scipy.stats.bootstrap((data,), statistic, method='BCa', n_resamples=100000,
//                         confidence_level=0.95, random_state=20240601)
// with scipy 1.10.1 and numpy 1.24.2 (Debian bookworm's python3-scipy).
//
// Tolerance. scipy's endpoints carry Monte-Carlo error, and ours too when we sample; and the median's
// bootstrap distribution is discrete (an endpoint jumps between atoms), so a tolerance in value (a %
// of the width) would be too loose for the smooth cases or too tight for the lumpy ones. The
// comparison is made on the probability scale instead: scipy's endpoint e, placed in our own
// bootstrap distribution F (the one our interval came from), must sit at our adjusted percentile
// alpha: F(e-) - tol <= alpha <= F(e) + tol (F(e-) < F(e) at an atom). Our F is
//   - Monte Carlo (the small sets' means): the same seed's resamples, B of them;
//   - exact (every median): the exact law; no error of ours;
//   - saddlepoint (the means of lognormal, n = 200, and lognormal2000): continuous, F(e-) = F(e).
// tol is 4 standard deviations of the Monte-Carlo error of that difference, with B resamples here (Monte
// Carlo only) and R = 100,000 in scipy (see tolerance() below):
//   - an empirical CDF or quantile is off by sqrt(alpha (1 - alpha) / B) in probability: once for our
//     F, once for scipy's quantile (with R);
//   - z0 = Phi^-1(f) is off by sqrt(f (1 - f) / B) / phi(z0), for each implementation, and moves
//     alpha = Phi(z0 + s / (1 - a s)), s = z0 + z, by d alpha / d z0 = phi(.) (1 + 1 / (1 - a s)^2);
//   - the saddlepoint, which approximates, is allowed half the Monte-Carlo error of 10,000 resamples
//     besides (bootstrap_saddlepoint_gtest.cc shows it errs by less).
// At B = R = 100,000 that is about 0.001 to 0.002 (the quantized set's lower end, with a = 0.13,
// is the largest), at B = 10,000 about 0.002 to 0.004. The acceleration is deterministic in both.
// The differences in value, as a fraction of the width, are printed for the log.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/distributions/normal.hpp>

#include "stats/bootstrap.h"
#include "tests/support/bca_error.h"

namespace gbx {
namespace {

struct Reference {
  std::string dataset;
  BootstrapStatistic statistic;
  double lower;
  double upper;
};

// Output of make_bca_reference.py (scipy 1.10.1, numpy 1.24.2).
const Reference kReferences[] = {
    {"timings", BootstrapStatistic::median, 12.1, 12.6},
    {"timings", BootstrapStatistic::mean, 12.344000000000001, 13.823999999999998},
    {"lognormal", BootstrapStatistic::median, 0.8761027422195931, 1.1359958498590137},
    {"lognormal", BootstrapStatistic::mean, 1.1835724611651717, 1.496270971580038},
    {"bimodal", BootstrapStatistic::median, 1.0063727872792876, 1.450575064608533},
    {"bimodal", BootstrapStatistic::mean, 1.1403572230608694, 1.26514068483959},
    {"quantized", BootstrapStatistic::mean, 1006.1290322580645, 1092.258064516129},
    // make_bca_reference.py lognormal2000 (in batches of 1,000 resamples; see there).
    {"lognormal2000", BootstrapStatistic::median, 0.9599158534556684, 1.0417599602307703},
    {"lognormal2000", BootstrapStatistic::mean, 1.2765457138989154, 1.3770533563110086},
};

// The datasets of make_bca_reference.py, built the same way.
std::vector<double> dataset(const std::string& name) {
  const boost::math::normal_distribution<double> normal;
  const auto z = [&](double p) { return boost::math::quantile(normal, p); };
  std::vector<double> values;
  if (name == "timings") {
    values = {12.1, 11.8, 12.4, 13.0, 11.9, 12.2, 12.0, 14.8, 12.3, 11.7, 12.6, 12.1, 19.5,
              12.0, 12.5, 11.9, 13.3, 12.2, 12.8, 12.4, 11.6, 15.2, 12.0, 12.3, 12.7};
  } else if (name == "lognormal") {
    for (int i = 0; i < 200; ++i) values.push_back(std::exp(0.75 * z((i + 0.5) / 200)));
  } else if (name == "bimodal") {
    for (int i = 0; i < 36; ++i) values.push_back(1.0 + 0.02 * z((i + 0.5) / 36));
    for (int i = 0; i < 24; ++i) values.push_back(1.5 + 0.03 * z((i + 0.5) / 24));
  } else if (name == "lognormal2000") {
    for (int i = 0; i < 2000; ++i) values.push_back(std::exp(0.75 * z((i + 0.5) / 2000)));
  } else if (name == "quantized") {
    values = {1000, 1000, 1010, 1000, 1020, 990,  1000, 1010, 1000, 1030, 1000, 990, 1010, 1000, 1200, 1000,
              1010, 1020, 1000, 990,  1000, 1010, 1000, 1000, 1040, 1010, 1000, 990, 1000, 1010, 1500};
  }
  return values;
}

// Where `endpoint` sits in our bootstrap distribution: [P(theta* < e), P(theta* <= e)]. The data of
// the formula-built sets may differ from scipy's by an ulp or two, hence the relative slack.
struct OurDistribution {
  std::vector<double> sorted;        // Monte Carlo
  std::vector<BootstrapAtom> atoms;  // exact
  std::vector<double> samples;       // saddlepoint
  BootstrapDistribution kind = BootstrapDistribution::monte_carlo;

  std::pair<double, double> rank_fraction(double endpoint) const {
    const double slack = 1e-12 * std::abs(endpoint);
    switch (kind) {
      case BootstrapDistribution::monte_carlo: {
        const auto below = std::lower_bound(sorted.begin(), sorted.end(), endpoint - slack);
        const auto through = std::upper_bound(sorted.begin(), sorted.end(), endpoint + slack);
        const auto size = static_cast<double>(sorted.size());
        return {static_cast<double>(below - sorted.begin()) / size,
                static_cast<double>(through - sorted.begin()) / size};
      }
      case BootstrapDistribution::exact: {
        double below = 0.0;
        double through = 0.0;
        for (const BootstrapAtom& atom : atoms) {
          if (atom.value < endpoint - slack) below += atom.probability;
          if (atom.value <= endpoint + slack) through += atom.probability;
        }
        return {below, through};
      }
      case BootstrapDistribution::saddlepoint:
        break;
    }
    const double at = *saddlepoint_mean_cdf(samples, endpoint);
    return {at, at};
  }
};

constexpr double kScipyResamples = 100000;

// 4 standard deviations of (our alpha) - (scipy's endpoint's rank in our F); see the top of the file.
// `resamples` is 0 when our F has no Monte-Carlo error.
double tolerance(double alpha, double z0, double acceleration, double tail, double resamples, bool saddlepoint) {
  const double per_resample = gbx_test::bca_bound_variance_per_resample(alpha, z0, acceleration, tail);
  const double ours = resamples > 0.0 ? 1.0 / resamples : 0.0;
  const double allowance = saddlepoint ? 0.5 * std::sqrt(per_resample / 10000.0) : 0.0;
  return 4.0 * std::sqrt(per_resample * (ours + 1.0 / kScipyResamples)) + allowance;
}

void compare(std::size_t resamples) {
  for (const Reference& reference : kReferences) {
    const std::vector<double> samples = dataset(reference.dataset);
    BootstrapOptions options;
    options.resamples = resamples;
    options.seed = 20240601;
    const BootstrapResult result = bootstrap_interval(samples, reference.statistic, options);
    ASSERT_TRUE(result.interval);
    EXPECT_EQ(result.method, BootstrapMethod::bca);
    EXPECT_FALSE(result.degenerate) << result.reason;
    OurDistribution ours;
    ours.kind = result.distribution;
    if (ours.kind == BootstrapDistribution::monte_carlo) {
      ours.sorted = bootstrap_distribution(samples, reference.statistic, resamples, options.seed);
      std::sort(ours.sorted.begin(), ours.sorted.end());
    } else if (ours.kind == BootstrapDistribution::exact) {
      ours.atoms = exact_median_distribution(samples);
    } else {
      ours.samples = samples;
    }
    const auto [lower_below, lower_through] = ours.rank_fraction(reference.lower);
    const auto [upper_below, upper_through] = ours.rank_fraction(reference.upper);
    const double width = reference.upper - reference.lower;
    std::printf(
        "%-13s %-6s %-11s B=%6zu: ours [%.6g, %.6g] scipy [%.6g, %.6g]: differ by %.2f%%, %.2f%% of the width; "
        "alpha %.4f in [%.4f, %.4f], %.4f in [%.4f, %.4f]\n",
        reference.dataset.c_str(), to_string(reference.statistic), to_string(result.distribution), resamples,
        result.interval->lower, result.interval->upper, reference.lower, reference.upper,
        100 * (result.interval->lower - reference.lower) / width,
        100 * (result.interval->upper - reference.upper) / width, result.lower_percentile, lower_below, lower_through,
        result.upper_percentile, upper_below, upper_through);
    const std::string what = reference.dataset + " " + to_string(reference.statistic);
    ASSERT_TRUE(result.bias_correction && result.acceleration);
    const double B = ours.kind == BootstrapDistribution::monte_carlo ? static_cast<double>(resamples) : 0.0;
    const bool saddlepoint = ours.kind == BootstrapDistribution::saddlepoint;
    const double lower_tolerance =
        tolerance(result.lower_percentile, *result.bias_correction, *result.acceleration, 0.025, B, saddlepoint);
    const double upper_tolerance =
        tolerance(result.upper_percentile, *result.bias_correction, *result.acceleration, 0.975, B, saddlepoint);
    std::printf("  tolerances %.4f, %.4f\n", lower_tolerance, upper_tolerance);
    EXPECT_GE(result.lower_percentile, lower_below - lower_tolerance) << what;
    EXPECT_LE(result.lower_percentile, lower_through + lower_tolerance) << what;
    EXPECT_GE(result.upper_percentile, upper_below - upper_tolerance) << what;
    EXPECT_LE(result.upper_percentile, upper_through + upper_tolerance) << what;
  }
}

TEST(BcaReference, TheLargeSetsTakeTheFastPaths) {
  // So that both sides of the mean's saddlepoint threshold are compared above.
  for (const char* name : {"lognormal", "lognormal2000"}) {
    EXPECT_EQ(bootstrap_interval(dataset(name), BootstrapStatistic::mean).distribution,
              BootstrapDistribution::saddlepoint)
        << name;
  }
  for (const char* name : {"timings", "bimodal", "quantized"}) {
    EXPECT_EQ(bootstrap_interval(dataset(name), BootstrapStatistic::mean).distribution,
              BootstrapDistribution::monte_carlo)
        << name;
  }
  EXPECT_EQ(bootstrap_interval(dataset("lognormal2000"), BootstrapStatistic::median).distribution,
            BootstrapDistribution::exact);
}

// The resamples matter to the Monte-Carlo cases only.
TEST(BcaReference, AgreesWithScipyAt100000Resamples) { compare(100000); }

TEST(BcaReference, AgreesWithScipyAtTheDefault10000Resamples) { compare(10000); }

}  // namespace
}  // namespace gbx

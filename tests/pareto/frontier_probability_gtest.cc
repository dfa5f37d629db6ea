// Frontier probabilities against answers known in advance: a normal-theory answer for samples without
// sampling noise, exact sums over the median's bootstrap laws for random samples, and the certain cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "analysis/pareto.h"
#include "stats/bootstrap.h"

namespace gbx {
namespace {

double phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double phi_inverse(double p) {
  double low = -40.0;
  double high = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (low + high);
    (phi(middle) < p ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

// The normal's quantiles at (i - 1/2) / n: a sample without sampling noise, so the bootstrap law of
// its median is close to the median's sampling law, normal with sd sigma sqrt(pi / (2n)).
std::vector<double> normal_quantiles(double mu, double sigma, std::size_t n) {
  std::vector<double> samples;
  for (std::size_t i = 1; i <= n; ++i) {
    samples.push_back(mu + sigma * phi_inverse((static_cast<double>(i) - 0.5) / static_cast<double>(n)));
  }
  return samples;
}

std::vector<double> random_normal(double mu, double sigma, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(mu, sigma);
  std::vector<double> samples(n);
  for (double& x : samples) x = normal(engine);
  return samples;
}

ParetoCandidate candidate(const std::string& variant, std::vector<double> samples, double error) {
  ParetoCandidate c;
  c.name = variant;
  c.variant = variant;
  c.latency_samples = std::move(samples);
  c.error = error;
  c.memory_bytes = 1024;
  c.memory_kind = "host_peak_bytes";
  return c;
}

// P(X's resampled median <= every other's), summed over the atoms of the exact bootstrap laws: with
// equal error and memory, that is X's probability of being non-dominated.
double exact_minimum_probability(std::size_t x, const std::vector<std::vector<double>>& samples) {
  std::vector<std::vector<BootstrapAtom>> laws;
  for (const auto& s : samples) laws.push_back(exact_median_distribution(s));
  double total = 0.0;
  for (const BootstrapAtom& atom : laws[x]) {
    double others_not_below = 1.0;
    for (std::size_t y = 0; y < laws.size(); ++y) {
      if (y == x) continue;
      double at_least = 0.0;
      for (const BootstrapAtom& other : laws[y]) at_least += other.value >= atom.value ? other.probability : 0.0;
      others_not_below *= at_least;
    }
    total += atom.probability * others_not_below;
  }
  return total;
}

// Four standard errors of a Monte-Carlo share over `resamples`, never below that of p = 0.001.
double monte_carlo_tolerance(double p, std::size_t resamples) {
  return 4.5 * std::sqrt(std::max(p * (1.0 - p), 1e-3) / static_cast<double>(resamples));
}

TEST(FrontierProbability, MatchesTheNormalTheoryAnswerForAKnownGap) {
  // Two variants, equal error and memory, latencies normal with medians g standard errors apart.
  // The slower is non-dominated in a resample when its drawn median is not above the faster's:
  // P = P(N(0, 2 se^2) >= g se) = Phi(-g / sqrt 2).
  // Tolerance 0.025: 20,000 resamples give a Monte-Carlo sd of at most 0.0035 (x4.5 = 0.016); the
  // bootstrap law's departure from the normal at n = 1001 (atoms ~0.06 se apart, ties at g = 0)
  // moves the exact answer by under 0.01 at these gaps, as summing over its atoms shows.
  const std::size_t n = 1001;
  const double mu = 1e-3;
  const double sigma = 0.05e-3;
  const double se = sigma * std::sqrt(std::acos(-1.0) / (2.0 * static_cast<double>(n)));
  ParetoOptions options;
  options.resamples = 20000;
  for (double gap : {0.0, 0.5, 1.0, 2.0, 3.0}) {
    const auto group = analyze_pareto("p",
                                      {candidate("fast", normal_quantiles(mu, sigma, n), 1e-6),
                                       candidate("slow", normal_quantiles(mu + gap * se, sigma, n), 1e-6)},
                                      options);
    const double p_fast = group.variants[0].frontier_probability;
    const double p_slow = group.variants[1].frontier_probability;
    EXPECT_NEAR(p_slow, phi(-gap / std::sqrt(2.0)), 0.025) << "gap " << gap << " se";
    EXPECT_NEAR(p_fast, phi(gap / std::sqrt(2.0)), 0.025) << "gap " << gap << " se";
    // In every resample one of the two is on the frontier, both when their medians tie.
    EXPECT_GE(p_fast + p_slow, 1.0);
    // Up to 3 se the 95% intervals (+/-1.96 se each) overlap: the interval rule keeps both, and the
    // probability grades the evidence that the rule does not act on.
    EXPECT_TRUE(group.variants[1].on_frontier) << "gap " << gap << " se";
  }
}

TEST(FrontierProbability, MatchesExactSumsOverTheBootstrapLawsForThreeVariants) {
  // Jointly drawn medians: each variant is non-dominated when its median is the smallest of three.
  // Drawing pairs separately would give P(beats b) + ... instead, which these sums tell apart.
  const std::vector<std::vector<double>> samples{random_normal(1.00e-3, 0.05e-3, 41, 1),
                                                 random_normal(1.01e-3, 0.05e-3, 41, 2),
                                                 random_normal(1.02e-3, 0.05e-3, 41, 3)};
  const auto group = analyze_pareto(
      "p", {candidate("a", samples[0], 1e-6), candidate("b", samples[1], 1e-6), candidate("c", samples[2], 1e-6)});
  double sum = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    const double expected = exact_minimum_probability(i, samples);
    EXPECT_NEAR(group.variants[i].frontier_probability, expected, monte_carlo_tolerance(expected, 2000))
        << group.variants[i].variant;
    sum += group.variants[i].frontier_probability;
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);  // continuous data from three sources: the medians never tie
}

TEST(FrontierProbability, IdenticalDistributionsShareTheFrontierEvenly) {
  // The same samples twice: each is non-dominated when its draw is the smaller or they tie, so
  // P = 1/2 + P(tie) / 2, P(tie) = sum of the squared atom probabilities.
  const std::vector<double> samples = random_normal(1e-3, 0.05e-3, 41, 7);
  double tie = 0.0;
  for (const BootstrapAtom& atom : exact_median_distribution(samples)) tie += atom.probability * atom.probability;
  ASSERT_GT(tie, 0.01);
  const auto group = analyze_pareto("p", {candidate("a", samples, 1e-6), candidate("b", samples, 1e-6)});
  for (const auto& v : group.variants) {
    EXPECT_NEAR(v.frontier_probability, 0.5 + tie / 2.0, monte_carlo_tolerance(0.5, 2000)) << v.variant;
  }
  EXPECT_NEAR(group.variants[0].frontier_probability + group.variants[1].frontier_probability - 1.0, tie,
              monte_carlo_tolerance(tie, 2000));
}

TEST(FrontierProbability, TheOnlyMostAccurateVariantIsAlwaysOnTheFrontier) {
  // Whatever its latency: nothing is no worse on error, so nothing can dominate it.
  for (double slowdown : {1.0, 1.05, 10.0}) {
    const auto group =
        analyze_pareto("p", {candidate("fast", random_normal(1e-3, 0.05e-3, 31, 11), 1e-4),
                             candidate("accurate", random_normal(slowdown * 1e-3, 0.05e-3, 31, 12), 1e-8)});
    EXPECT_EQ(group.variants[1].frontier_probability, 1.0) << slowdown;
    EXPECT_TRUE(group.variants[1].on_frontier) << slowdown;
  }
}

TEST(FrontierProbability, AMuchSlowerLessAccurateVariantNeverIs) {
  // Every sample of the slow one is above every sample of the fast one, so is every resampled median.
  const auto group = analyze_pareto("p", {candidate("fast", random_normal(1e-3, 0.01e-3, 31, 21), 1e-7),
                                          candidate("slow", random_normal(2e-3, 0.01e-3, 31, 22), 1e-5)});
  EXPECT_EQ(group.variants[0].frontier_probability, 1.0);
  EXPECT_EQ(group.variants[1].frontier_probability, 0.0);
  EXPECT_FALSE(group.variants[1].on_frontier);
}

TEST(FrontierProbability, DependsOnTheSeedOnlyThroughMonteCarloNoise) {
  const std::vector<double> a = random_normal(1.00e-3, 0.05e-3, 41, 31);
  const std::vector<double> b = random_normal(1.01e-3, 0.05e-3, 41, 32);
  const double expected = exact_minimum_probability(1, {a, b});
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    ParetoOptions options;
    options.seed = seed;
    const auto group = analyze_pareto("p", {candidate("a", a, 1e-6), candidate("b", b, 1e-6)}, options);
    EXPECT_NEAR(group.variants[1].frontier_probability, expected, monte_carlo_tolerance(expected, 2000)) << seed;
  }
}

}  // namespace
}  // namespace gbx

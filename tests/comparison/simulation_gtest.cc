// Simulations of whole comparisons (mann_whitney, benjamini_hochberg, median_ratio_interval, decide):
// the false-alarm rate on A/A records and the power against a 5% slowdown. Seeded, so each run draws
// the same data; the figures are printed.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stats/comparison.h"

namespace gbx {
namespace {

std::vector<double> lognormal(std::mt19937_64& engine, std::size_t n, double location, double sigma) {
  std::lognormal_distribution<double> distribution(location, sigma);
  std::vector<double> samples(n);
  for (double& sample : samples) sample = distribution(engine);
  return samples;
}

// Fewer resamples than the default 10,000 keep the 10,000 A/A comparisons within seconds; the
// interval's bounds move by well under its width.
constexpr std::size_t kSimulationResamples = 2000;

TEST(Simulation, AAPairsRarelyReportAChange) {
  constexpr int kPairs = 200;
  constexpr int kBenchmarks = 50;
  std::mt19937_64 engine(20261130);
  std::uniform_real_distribution<double> sigma_of(0.01, 0.05);
  std::uniform_int_distribution<std::size_t> n_of(30, 100);
  std::uniform_real_distribution<double> location_of(-2.0, 5.0);
  int pairs_with_a_change = 0;
  int changes = 0;
  int same = 0;
  for (int pair = 0; pair < kPairs; ++pair) {
    std::vector<double> p_values;
    std::vector<RatioInterval> ratios;
    for (int benchmark = 0; benchmark < kBenchmarks; ++benchmark) {
      const double sigma = sigma_of(engine);
      const double location = location_of(engine);
      const std::size_t n = n_of(engine);
      const std::vector<double> base = lognormal(engine, n, location, sigma);
      const std::vector<double> cand = lognormal(engine, n_of(engine), location, sigma);
      p_values.push_back(mann_whitney(base, cand).p_value);
      const auto ratio = median_ratio_interval(base, cand, 0.95, kSimulationResamples, engine());
      ASSERT_TRUE(ratio);
      ratios.push_back(*ratio);
    }
    const std::vector<double> adjusted = benjamini_hochberg(p_values);
    bool any = false;
    for (int benchmark = 0; benchmark < kBenchmarks; ++benchmark) {
      const Verdict verdict = decide(adjusted[benchmark], ratios[benchmark]);
      if (verdict == Verdict::faster || verdict == Verdict::slower) {
        any = true;
        ++changes;
      }
      if (verdict == Verdict::same) ++same;
    }
    if (any) ++pairs_with_a_change;
  }
  const double fraction = static_cast<double>(pairs_with_a_change) / kPairs;
  std::printf("A/A: %d of %d pairs (%.1f%%) report a change (%d of %d benchmarks); %d benchmarks 'same'\n",
              pairs_with_a_change, kPairs, 100.0 * fraction, changes, kPairs * kBenchmarks, same);
  EXPECT_LE(fraction, 0.05);
  EXPECT_GT(same, 0);  // the verdicts are not all inconclusive
}

TEST(Simulation, PowerAgainstAFivePercentSlowdown) {
  constexpr int kTrials = 1000;
  std::mt19937_64 engine(5);
  int found = 0;
  int wrong_way = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const std::vector<double> base = lognormal(engine, 100, 0.0, 0.01);
    const std::vector<double> cand = lognormal(engine, 100, std::log(1.05), 0.01);
    // One benchmark per trial: Benjamini-Hochberg is the identity.
    const double adjusted = benjamini_hochberg({mann_whitney(base, cand).p_value})[0];
    const auto ratio = median_ratio_interval(base, cand, 0.95, kSimulationResamples, engine());
    ASSERT_TRUE(ratio);
    const Verdict verdict = decide(adjusted, *ratio);
    if (verdict == Verdict::slower) ++found;
    if (verdict == Verdict::faster) ++wrong_way;
  }
  const double fraction = static_cast<double>(found) / kTrials;
  std::printf("power: %d of %d trials (%.1f%%) find the 5%% slowdown\n", found, kTrials, 100.0 * fraction);
  EXPECT_GE(fraction, 0.95);
  EXPECT_EQ(wrong_way, 0);
}

}  // namespace
}  // namespace gbx

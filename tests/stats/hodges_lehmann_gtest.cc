// The selection-based Hodges-Lehmann shift against the brute force (every pairwise difference, sorted)
// on many small random cases, with and without ties.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "stats/hodges_lehmann.h"

namespace {

std::vector<double> all_differences(const std::vector<double>& base, const std::vector<double>& cand) {
  std::vector<double> differences;
  for (double c : cand) {
    for (double b : base) differences.push_back(c - b);
  }
  std::sort(differences.begin(), differences.end());
  return differences;
}

double brute_force_shift(const std::vector<double>& base, const std::vector<double>& cand) {
  const std::vector<double> d = all_differences(base, cand);
  const std::size_t n = d.size();
  return n % 2 == 1 ? d[n / 2] : 0.5 * d[n / 2 - 1] + 0.5 * d[n / 2];
}

// Values on a coarse grid (levels distinct values) tie often, as quantized timings do.
std::vector<double> draw(std::mt19937_64& engine, std::size_t n, int levels) {
  std::vector<double> values(n);
  std::uniform_int_distribution<int> grid(0, levels - 1);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (double& v : values) v = levels > 0 ? 0.25 * grid(engine) : normal(engine);
  return values;
}

TEST(HodgesLehmannSelection, EveryOrderStatisticMatchesTheSortedDifferences) {
  std::mt19937_64 engine(11);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n1 = 1 + trial % 13;
    const std::size_t n2 = 1 + (trial * 7) % 17;
    const int levels = trial % 3 == 0 ? 0 : 1 + trial % 6;  // continuous, or 1..6 tied levels
    const std::vector<double> base = draw(engine, n1, levels);
    const std::vector<double> cand = draw(engine, n2, levels);
    const std::vector<double> sorted = all_differences(base, cand);
    for (std::size_t k = 0; k < sorted.size(); ++k) {
      ASSERT_EQ(gbx::kth_pairwise_difference(base, cand, k), sorted[k]) << "trial " << trial << " k " << k;
    }
  }
}

TEST(HodgesLehmannSelection, ShiftMatchesTheBruteForceOnLargerCases) {
  std::mt19937_64 engine(12);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n1 = 20 + trial % 150;
    const std::size_t n2 = 30 + (trial * 37) % 170;
    const int levels = trial % 2 == 0 ? 0 : 2 + trial % 40;
    const std::vector<double> base = draw(engine, n1, levels);
    std::vector<double> cand = draw(engine, n2, levels);
    for (double& c : cand) c += 0.5;
    ASSERT_EQ(gbx::hodges_lehmann_shift(base, cand), brute_force_shift(base, cand)) << "trial " << trial;
  }
}

TEST(HodgesLehmannSelection, AllEqualAndSingleValues) {
  EXPECT_EQ(gbx::hodges_lehmann_shift({2, 2, 2}, {2, 2}), 0.0);
  EXPECT_EQ(gbx::hodges_lehmann_shift({1}, {4}), 3.0);
  EXPECT_EQ(gbx::hodges_lehmann_shift({1, 1, 1, 1}, {1, 1, 1, 5}), 0.0);
}

}  // namespace

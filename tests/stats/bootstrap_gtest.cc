// Bootstrap mechanics: determinism, the documented resampling scheme, the jackknife, BCa's adjusted
// percentiles, and degenerate inputs (flagged, never NaN).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "stats/bootstrap.h"
#include "tests/support/random_samples.h"

namespace gbx {
namespace {

std::vector<double> lognormal(std::size_t n, std::uint64_t seed) { return gbx_test::lognormal_samples(n, 0.5, seed); }

void expect_finite(const BootstrapResult& result) {
  ASSERT_TRUE(result.interval);
  EXPECT_TRUE(std::isfinite(result.interval->lower));
  EXPECT_TRUE(std::isfinite(result.interval->upper));
  EXPECT_LE(result.interval->lower, result.interval->upper);
  EXPECT_TRUE(std::isfinite(result.estimate));
  EXPECT_TRUE(std::isfinite(result.bias_correction.value_or(0.0)));
  EXPECT_TRUE(std::isfinite(result.acceleration.value_or(0.0)));
}

// The scheme bootstrap.h documents, written out again: SplitMix64 seeds per chunk, two 32-bit draws
// per 64-bit output (low half first), Lemire's multiply-shift with rejection.
std::uint64_t mix(std::uint64_t x) {
  std::uint64_t z = x + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint32_t lemire(std::uint32_t draw, std::uint32_t bound, std::mt19937_64& engine) {
  std::uint64_t product = std::uint64_t{draw} * bound;
  while (static_cast<std::uint32_t>(product) < static_cast<std::uint32_t>(0u - bound) % bound) {
    product = (engine() & 0xffffffffULL) * bound;
  }
  return static_cast<std::uint32_t>(product >> 32);
}

std::vector<double> resample(const std::vector<double>& sorted, std::mt19937_64& engine) {
  const auto n = static_cast<std::uint32_t>(sorted.size());
  std::vector<double> values;
  while (values.size() < sorted.size()) {
    const std::uint64_t draw = engine();
    values.push_back(sorted[lemire(static_cast<std::uint32_t>(draw), n, engine)]);
    if (values.size() < sorted.size())
      values.push_back(sorted[lemire(static_cast<std::uint32_t>(draw >> 32), n, engine)]);
  }
  return values;
}

TEST(Bootstrap, FollowsTheDocumentedScheme) {
  for (std::size_t n : {101u, 100u}) {
    std::vector<double> samples = lognormal(n, n);
    const std::uint64_t seed = 99;
    const std::size_t resamples = 2 * kBootstrapChunk + 5;  // three chunks, the last one short
    const std::vector<double> medians = bootstrap_distribution(samples, BootstrapStatistic::median, resamples, seed);
    const std::vector<double> means = bootstrap_distribution(samples, BootstrapStatistic::mean, resamples, seed);
    ASSERT_EQ(medians.size(), resamples);
    std::sort(samples.begin(), samples.end());
    for (std::size_t r = 0; r < resamples; ++r) {
      const std::size_t chunk = r / kBootstrapChunk;
      std::mt19937_64 engine(mix(mix(seed) ^ chunk));
      std::vector<double> values;
      for (std::size_t skip = chunk * kBootstrapChunk; skip <= r; ++skip) values = resample(samples, engine);
      double sum = 0.0;
      for (double value : values) sum += value;
      EXPECT_EQ(means[r], sum / static_cast<double>(n)) << n << " " << r;
      // Median by plain selection on the values, the way numpy takes it.
      std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n / 2), values.end());
      const double upper_middle = values[n / 2];
      const double lower_middle =
          n % 2 == 1 ? upper_middle
                     : *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n / 2));
      const double median = 0.5 * lower_middle + 0.5 * upper_middle;
      EXPECT_EQ(medians[r], median) << n << " " << r;
    }
  }
}

TEST(Bootstrap, DeterministicForASeedWhateverTheThreadCount) {
  const std::vector<double> samples = lognormal(500, 1);
  const std::vector<double> reference = bootstrap_distribution(samples, BootstrapStatistic::median, 3000, 5, 1);
  for (unsigned threads : {2u, 3u, 8u}) {
    EXPECT_EQ(bootstrap_distribution(samples, BootstrapStatistic::median, 3000, 5, threads), reference) << threads;
  }
  EXPECT_NE(bootstrap_distribution(samples, BootstrapStatistic::median, 3000, 6, 1), reference);

  // The Monte-Carlo path records its seed and resamples, and repeats itself.
  BootstrapOptions options;
  options.seed = 1234;
  options.analytic = false;
  const BootstrapResult first = bootstrap_interval(samples, BootstrapStatistic::median, options);
  const BootstrapResult second = bootstrap_interval(samples, BootstrapStatistic::median, options);
  ASSERT_TRUE(first.interval && second.interval);
  EXPECT_EQ(first.interval->lower, second.interval->lower);
  EXPECT_EQ(first.interval->upper, second.interval->upper);
  EXPECT_EQ(first.distribution, BootstrapDistribution::monte_carlo);
  EXPECT_EQ(first.seed, 1234u);
  EXPECT_EQ(first.resamples, 10000u);
  EXPECT_EQ(first.method, BootstrapMethod::bca);
  EXPECT_EQ(first.interval->method, "bootstrap BCa (median, 10000 resamples)");
  EXPECT_FALSE(first.degenerate) << first.reason;
  expect_finite(first);
}

TEST(Bootstrap, RecordsHowTheDistributionWasObtained) {
  const std::vector<double> samples = lognormal(500, 1);
  BootstrapOptions options;
  options.seed = 1234;
  // By default: the median's exact law and the mean's saddlepoint, neither drawn, so no seed and no
  // resamples are recorded, and the seed changes nothing.
  const BootstrapResult median = bootstrap_interval(samples, BootstrapStatistic::median, options);
  const BootstrapResult mean = bootstrap_interval(samples, BootstrapStatistic::mean, options);
  ASSERT_TRUE(median.interval && mean.interval);
  EXPECT_EQ(median.distribution, BootstrapDistribution::exact);
  EXPECT_EQ(mean.distribution, BootstrapDistribution::saddlepoint);
  for (const BootstrapResult* result : {&median, &mean}) {
    EXPECT_EQ(result->seed, 0u);
    EXPECT_EQ(result->resamples, 0u);
    EXPECT_EQ(result->method, BootstrapMethod::bca);
    EXPECT_FALSE(result->degenerate) << result->reason;
    expect_finite(*result);
  }
  EXPECT_EQ(median.interval->method, "bootstrap BCa (median, exact bootstrap distribution)");
  EXPECT_EQ(mean.interval->method, "bootstrap BCa (mean, saddlepoint approximation of the bootstrap distribution)");
  options.seed = 99;
  const BootstrapResult reseeded = bootstrap_interval(samples, BootstrapStatistic::median, options);
  EXPECT_EQ(reseeded.interval->lower, median.interval->lower);
  EXPECT_EQ(reseeded.interval->upper, median.interval->upper);
  // The mean of too few samples, or of lumpy ones, is sampled.
  const BootstrapResult small = bootstrap_interval(lognormal(50, 1), BootstrapStatistic::mean, options);
  EXPECT_EQ(small.distribution, BootstrapDistribution::monte_carlo);
  EXPECT_EQ(small.seed, 99u);
  EXPECT_EQ(small.resamples, 10000u);
  EXPECT_STREQ(to_string(BootstrapDistribution::exact), "exact");
  EXPECT_STREQ(to_string(BootstrapDistribution::saddlepoint), "saddlepoint");
  EXPECT_STREQ(to_string(BootstrapDistribution::monte_carlo), "monte_carlo");
}

TEST(Bootstrap, IntervalsContainTheEstimate) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    // 150: enough for the mean's saddlepoint path.
    const std::vector<double> samples = lognormal(150, seed);
    for (BootstrapStatistic statistic : {BootstrapStatistic::median, BootstrapStatistic::mean}) {
      for (BootstrapMethod method : {BootstrapMethod::percentile, BootstrapMethod::bca}) {
        for (bool analytic : {true, false}) {
          BootstrapOptions options;
          options.method = method;
          options.analytic = analytic;
          const BootstrapResult result = bootstrap_interval(samples, statistic, options);
          expect_finite(result);
          EXPECT_EQ(result.method, method);
          const std::string what =
              std::string(to_string(statistic)) + " " + to_string(method) + " " + to_string(result.distribution);
          EXPECT_LE(result.interval->lower, result.estimate) << what;
          EXPECT_GE(result.interval->upper, result.estimate) << what;
          EXPECT_DOUBLE_EQ(result.interval->level, 0.95);
        }
      }
    }
  }
}

TEST(Bootstrap, LevelWidensTheInterval) {
  const std::vector<double> samples = lognormal(100, 4);
  for (BootstrapStatistic statistic : {BootstrapStatistic::median, BootstrapStatistic::mean}) {
    for (bool analytic : {true, false}) {
      BootstrapOptions options;
      options.analytic = analytic;
      options.level = 0.8;
      const BootstrapResult narrow = bootstrap_interval(samples, statistic, options);
      options.level = 0.99;
      const BootstrapResult wide = bootstrap_interval(samples, statistic, options);
      ASSERT_TRUE(narrow.interval && wide.interval);
      EXPECT_LT(wide.interval->lower, narrow.interval->lower) << to_string(narrow.distribution);
      EXPECT_GT(wide.interval->upper, narrow.interval->upper) << to_string(narrow.distribution);
    }
  }
}

TEST(Jackknife, HandComputedMean) {
  // {1, 2, 3, 4, 10}: mean 4, deviations -3 -2 -1 0 6; sum of cubes 180, of squares 50:
  // a = 180 / (6 * 50^1.5) = 0.6 / sqrt(50) = 0.08485281374.
  EXPECT_NEAR(*jackknife_acceleration({1, 2, 3, 4, 10}, BootstrapStatistic::mean), 0.6 / std::sqrt(50.0), 1e-14);
}

TEST(Jackknife, HandComputedMedian) {
  // {1, 2, 3, 7, 10}: leaving out 1 or 2 gives (3 + 7) / 2 = 5; leaving out 3 gives (2 + 7) / 2 = 4.5;
  // leaving out 7 or 10 gives (2 + 3) / 2 = 2.5. Mean 3.9; d = -1.1 (x2), -0.6, 1.4 (x2);
  // sum d^2 = 6.7, sum d^3 = 2.61; a = 2.61 / (6 * 6.7^1.5) = 0.0250829.
  EXPECT_NEAR(*jackknife_acceleration({10, 2, 7, 1, 3}, BootstrapStatistic::median), 2.61 / (6 * std::pow(6.7, 1.5)),
              1e-12);
}

TEST(Jackknife, MedianShortcutMatchesLeavingEachOut) {
  std::mt19937_64 engine(3);
  for (std::size_t n = 2; n <= 41; ++n) {
    std::vector<double> samples = lognormal(n, n);
    if (n % 3 == 0) {
      // Ties, as a coarse timer makes them.
      for (double& sample : samples) sample = std::round(sample * 4.0) / 4.0;
    }
    std::vector<double> leave_one_out;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<double> rest = samples;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      std::sort(rest.begin(), rest.end());
      const std::size_t m = rest.size();
      leave_one_out.push_back(m % 2 == 1 ? rest[m / 2] : 0.5 * rest[m / 2 - 1] + 0.5 * rest[m / 2]);
    }
    double dot = 0.0;
    for (double value : leave_one_out) dot += value / static_cast<double>(n);
    double squares = 0.0;
    double cubes = 0.0;
    for (double value : leave_one_out) {
      squares += (dot - value) * (dot - value);
      cubes += (dot - value) * (dot - value) * (dot - value);
    }
    const std::optional<double> acceleration = jackknife_acceleration(samples, BootstrapStatistic::median);
    if (squares < 1e-24) {
      EXPECT_FALSE(acceleration) << n;
    } else {
      ASSERT_TRUE(acceleration) << n;
      EXPECT_NEAR(*acceleration, cubes / (6.0 * std::pow(squares, 1.5)), 1e-9) << n;
    }
  }
}

TEST(BcaPercentiles, HandComputed) {
  // z0 = 0, a = 0: plain percentiles.
  auto percentiles = bca_percentiles(0.0, 0.0, 0.95);
  ASSERT_TRUE(percentiles);
  EXPECT_NEAR(percentiles->first, 0.025, 1e-12);
  EXPECT_NEAR(percentiles->second, 0.975, 1e-12);
  // z0 = 0.1, a = 0.05, z = -/+1.959963985. Lower: 0.1 - 1.959964 = -1.859964, / (1 + 0.05 * 1.859964)
  // = -1.701708, + 0.1 = -1.601708, Phi = 0.0546101. Upper: 2.059964 / (1 - 0.05 * 2.059964) = 2.296499,
  // + 0.1 = 2.396499, Phi = 0.9917237 (scipy.stats.norm agrees).
  percentiles = bca_percentiles(0.1, 0.05, 0.95);
  ASSERT_TRUE(percentiles);
  EXPECT_NEAR(percentiles->first, 0.05461007690, 1e-10);
  EXPECT_NEAR(percentiles->second, 0.99172373687, 1e-10);
  // a = 0.6: 1 - 0.6 * 1.96 < 0 on the upper side.
  EXPECT_FALSE(bca_percentiles(0.0, 0.6, 0.95));
  EXPECT_FALSE(bca_percentiles(std::nan(""), 0.0, 0.95));
  EXPECT_FALSE(bca_percentiles(0.0, 0.0, 1.0));
}

TEST(BootstrapDegenerate, ConstantDataAndOneSampleGiveThePoint) {
  for (BootstrapStatistic statistic : {BootstrapStatistic::median, BootstrapStatistic::mean}) {
    for (const std::vector<double>& samples : {std::vector<double>{3, 3, 3, 3}, std::vector<double>{3}}) {
      const BootstrapResult result = bootstrap_interval(samples, statistic);
      expect_finite(result);
      EXPECT_TRUE(result.degenerate);
      EXPECT_FALSE(result.reason.empty());
      EXPECT_EQ(result.interval->lower, 3.0);
      EXPECT_EQ(result.interval->upper, 3.0);
    }
  }
}

TEST(BootstrapDegenerate, TwoSamplesFallBackToPercentile) {
  for (BootstrapStatistic statistic : {BootstrapStatistic::median, BootstrapStatistic::mean}) {
    const BootstrapResult result = bootstrap_interval({1.0, 2.0}, statistic);
    expect_finite(result);
    EXPECT_TRUE(result.degenerate);
    EXPECT_EQ(result.method, BootstrapMethod::percentile);
    EXPECT_NE(result.reason.find("two samples"), std::string::npos);
    // Resampled statistics are 1, 1.5 or 2 (probabilities 1/4, 1/2, 1/4): the 2.5% and 97.5% points.
    EXPECT_EQ(result.interval->lower, 1.0);
    EXPECT_EQ(result.interval->upper, 2.0);
  }
}

TEST(BootstrapDegenerate, NothingToSay) {
  EXPECT_FALSE(bootstrap_interval({}, BootstrapStatistic::median).interval);
  EXPECT_EQ(bootstrap_interval({}, BootstrapStatistic::median).reason, "no samples");
  EXPECT_FALSE(bootstrap_interval({1.0, std::nan("")}, BootstrapStatistic::mean).interval);
  BootstrapOptions options;
  options.resamples = 0;
  EXPECT_FALSE(bootstrap_interval({1.0, 2.0, 3.0}, BootstrapStatistic::mean, options).interval);
  options.resamples = 100;
  options.level = 1.0;
  EXPECT_FALSE(bootstrap_interval({1.0, 2.0, 3.0}, BootstrapStatistic::mean, options).interval);
}

TEST(BootstrapDegenerate, NoSpreadInTheBootstrapDistribution) {
  // 100 ones and one 2: a resampled median is 2 only if 51 of 101 draws hit the 2 (never, in practice).
  std::vector<double> samples(100, 1.0);
  samples.push_back(2.0);
  const BootstrapResult result = bootstrap_interval(samples, BootstrapStatistic::median);
  expect_finite(result);
  EXPECT_TRUE(result.degenerate);
  EXPECT_NE(result.reason.find("no spread"), std::string::npos);
  EXPECT_EQ(result.interval->lower, 1.0);
  EXPECT_EQ(result.interval->upper, 1.0);
}

TEST(BootstrapDegenerate, EveryResampleAboveTheEstimate) {
  // {0, 0, 0, 0, 1}: the mean is 0.2 and a resampled mean is K / 5, K ~ Binomial(5, 0.2), above 0.2
  // with probability 0.263. With 4 resamples, some seeds put all four above: z0 = Phi^-1(0) = -Inf.
  const std::vector<double> samples{0, 0, 0, 0, 1};
  BootstrapOptions options;
  options.resamples = 4;
  bool found = false;
  for (std::uint64_t seed = 0; seed < 20000 && !found; ++seed) {
    const std::vector<double> means = bootstrap_distribution(samples, BootstrapStatistic::mean, 4, seed);
    const bool all_above = std::all_of(means.begin(), means.end(), [](double mean) { return mean > 0.2; });
    if (!all_above || *std::min_element(means.begin(), means.end()) == *std::max_element(means.begin(), means.end())) {
      continue;
    }
    found = true;
    options.seed = seed;
  }
  ASSERT_TRUE(found);
  const BootstrapResult result = bootstrap_interval(samples, BootstrapStatistic::mean, options);
  expect_finite(result);
  EXPECT_TRUE(result.degenerate);
  EXPECT_EQ(result.method, BootstrapMethod::percentile);
  EXPECT_NE(result.reason.find("z0 infinite"), std::string::npos);
  EXPECT_FALSE(result.bias_correction);
}

TEST(BootstrapDegenerate, FlatJackknifeTakesNoAcceleration) {
  // {1, 5, 5, 5, 9}: every leave-one-out median is 5, so a = 0/0; BCa goes on with a = 0.
  const BootstrapResult result = bootstrap_interval({9, 5, 1, 5, 5}, BootstrapStatistic::median);
  expect_finite(result);
  EXPECT_TRUE(result.degenerate);
  EXPECT_EQ(result.method, BootstrapMethod::bca);
  EXPECT_NE(result.reason.find("acceleration taken as 0"), std::string::npos);
  EXPECT_EQ(result.acceleration, 0.0);
}

}  // namespace
}  // namespace gbx

#pragma once

// Seeded test data for the statistics tests: the same seed gives the same samples.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace gbx_test {

// n draws of exp(N(0, sigma^2)): right-skewed like timings, median 1.
inline std::vector<double> lognormal_samples(std::size_t n, double sigma, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::lognormal_distribution<double> distribution(0.0, sigma);
  std::vector<double> samples(n);
  for (double& sample : samples) sample = distribution(engine);
  return samples;
}

}  // namespace gbx_test

#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

// Inputs and error measures shared by the kernel tests.
namespace kernel_tests {

// The unit roundoffs of the formats the kernels compute in: half the gap between 1 and the next
// representable number, the largest relative error of one rounding to nearest.
constexpr double kFp32Unit = 0x1p-24;
constexpr double kFp64Unit = 0x1p-53;

// n floats on a 2^-23 grid over [-1, 1), from std::mt19937: the engine is specified bit for bit by
// the standard (the distributions are not), so every standard library gives the same inputs.
inline std::vector<float> random_floats(std::size_t n, std::uint32_t seed) {
  std::mt19937 engine(seed);
  std::vector<float> values(n);
  for (float& value : values) value = static_cast<float>(engine() >> 8) * 0x1p-23f - 1.0f;
  return values;
}

// n whole numbers in [-bound, bound], as floats. Sums and products of a few thousand of them stay
// far below 2^24, so every float computation with them is exact, whatever the order.
inline std::vector<float> random_small_integers(std::size_t n, std::uint32_t seed, int bound) {
  std::mt19937 engine(seed);
  std::vector<float> values(n);
  const std::uint32_t choices = 2 * static_cast<std::uint32_t>(bound) + 1;
  for (float& value : values) value = static_cast<float>(static_cast<int>(engine() % choices) - bound);
  return values;
}

// ||values - reference||₂ / ||reference||₂, in double.
template <class T>
double relative_l2_error(const std::vector<T>& values, const std::vector<double>& reference) {
  double error = 0.0;
  double norm = 0.0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const double difference = static_cast<double>(values[i]) - reference[i];
    error += difference * difference;
    norm += reference[i] * reference[i];
  }
  return std::sqrt(error) / std::sqrt(norm);
}

}  // namespace kernel_tests

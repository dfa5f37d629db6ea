// fill_uniform: std::mt19937_64's draws, computed here independently, whether or not a worker keeps
// them; and what keeping holds (copies, bounded, freed when off).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "extensions/random_inputs.h"

namespace {

template <class T>
std::vector<T> expected_draws(std::size_t count, std::uint64_t seed, T low, T high) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> dist(low, high);
  std::vector<T> values(count);
  for (auto& v : values) v = dist(rng);
  return values;
}

template <class T>
std::vector<T> filled(std::size_t count, std::uint64_t seed, T low, T high) {
  std::vector<T> values(count, T(7));
  gbx::fill_uniform(gbx::Span<T>{values.data(), values.size()}, seed, low, high);
  return values;
}

class RandomInputs : public ::testing::Test {
 protected:
  void TearDown() override { gbx::keep_random_inputs(false); }
};

TEST_F(RandomInputs, FillsAreTheGeneratorsDrawsKeptOrNot) {
  const auto expected = expected_draws<float>(1000, 42, -1.0f, 1.0f);
  EXPECT_EQ(filled<float>(1000, 42, -1.0f, 1.0f), expected);
  gbx::keep_random_inputs(true);
  EXPECT_EQ(filled<float>(1000, 42, -1.0f, 1.0f), expected);  // drawn, and kept
  EXPECT_EQ(gbx::kept_random_input_bytes(), 1000 * sizeof(float));
  EXPECT_EQ(filled<float>(1000, 42, -1.0f, 1.0f), expected);  // copied from what is kept
  EXPECT_EQ(filled<double>(300, 43, 0.5, 2.0), expected_draws<double>(300, 43, 0.5, 2.0));
}

TEST_F(RandomInputs, OtherArgumentsAreOtherDraws) {
  gbx::keep_random_inputs(true);
  filled<float>(100, 1, -1.0f, 1.0f);
  EXPECT_EQ(filled<float>(100, 2, -1.0f, 1.0f), expected_draws<float>(100, 2, -1.0f, 1.0f));
  EXPECT_EQ(filled<float>(50, 1, -1.0f, 1.0f), expected_draws<float>(50, 1, -1.0f, 1.0f));
  EXPECT_EQ(filled<float>(100, 1, 0.0f, 1.0f), expected_draws<float>(100, 1, 0.0f, 1.0f));
  EXPECT_EQ(filled<double>(100, 1, -1.0, 1.0), expected_draws<double>(100, 1, -1.0, 1.0));
  EXPECT_EQ(gbx::kept_random_input_bytes(), 3 * 100 * sizeof(float) + 50 * sizeof(float) + 100 * sizeof(double));
}

TEST_F(RandomInputs, AKeptDrawIsACopyThatAKernelCannotChange) {
  gbx::keep_random_inputs(true);
  std::vector<float> first(64);
  gbx::fill_uniform(gbx::Span<float>{first.data(), first.size()}, 5, -1.0f, 1.0f);
  for (auto& v : first) v = 0.0f;  // an in-place kernel overwrites its input
  EXPECT_EQ(filled<float>(64, 5, -1.0f, 1.0f), expected_draws<float>(64, 5, -1.0f, 1.0f));
}

TEST_F(RandomInputs, KeepsAtMostItsBoundOldestDroppedFirst) {
  gbx::keep_random_inputs(true, 8000);
  filled<float>(1000, 1, -1.0f, 1.0f);
  filled<float>(1000, 2, -1.0f, 1.0f);
  EXPECT_EQ(gbx::kept_random_input_bytes(), 8000u);
  filled<float>(500, 3, -1.0f, 1.0f);  // seed 1 goes
  EXPECT_EQ(gbx::kept_random_input_bytes(), 6000u);
  EXPECT_EQ(filled<float>(3000, 4, -1.0f, 1.0f), expected_draws<float>(3000, 4, -1.0f, 1.0f));  // too big to keep
  EXPECT_EQ(gbx::kept_random_input_bytes(), 6000u);
  EXPECT_EQ(filled<float>(1000, 1, -1.0f, 1.0f), expected_draws<float>(1000, 1, -1.0f, 1.0f));  // drawn again
  EXPECT_EQ(gbx::kept_random_input_bytes(), 6000u);  // seed 2 went for it: seeds 3 and 1 are kept
  gbx::keep_random_inputs(false);
  EXPECT_EQ(gbx::kept_random_input_bytes(), 0u);
}

// Another worker of the same run: what is kept in memory is gone, and the shared directory is there.
class SharedRandomInputs : public RandomInputs {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() / ("gbx-random-inputs-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory_);
    gbx::share_random_inputs(directory_.string());
    gbx::keep_random_inputs(true);
  }
  void TearDown() override {
    gbx::share_random_inputs("");
    RandomInputs::TearDown();
    std::filesystem::remove_all(directory_);
  }
  static void next_worker() { gbx::keep_random_inputs(true); }
  std::filesystem::path only_file() const {
    std::filesystem::path found;
    for (const auto& entry : std::filesystem::directory_iterator(directory_)) found = entry.path();
    return found;
  }
  std::filesystem::path directory_;
};

TEST_F(SharedRandomInputs, ADrawIsWrittenOnceAndTheNextWorkerReadsIt) {
  const auto expected = expected_draws<float>(1000, 42, -1.0f, 1.0f);
  EXPECT_EQ(filled<float>(1000, 42, -1.0f, 1.0f), expected);
  const std::filesystem::path file = only_file();
  ASSERT_FALSE(file.empty());
  EXPECT_EQ(std::filesystem::file_size(file), 1000 * sizeof(float));
  // Mark a value past the ones checked: the next worker's fill gives it back, so it read the file.
  std::vector<float> marked = expected;
  marked[500] = 123.0f;
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(marked.data()), 1000 * sizeof(float));
  next_worker();
  EXPECT_EQ(filled<float>(1000, 42, -1.0f, 1.0f), marked);
}

TEST_F(SharedRandomInputs, AFileOfAnotherGeneratorOrSizeIsNotUsed) {
  filled<float>(1000, 7, -1.0f, 1.0f);
  const std::filesystem::path file = only_file();
  ASSERT_FALSE(file.empty());
  std::vector<float> other(1000, 0.25f);  // what another implementation's draws would be
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(other.data()), 1000 * sizeof(float));
  next_worker();
  EXPECT_EQ(filled<float>(1000, 7, -1.0f, 1.0f), expected_draws<float>(1000, 7, -1.0f, 1.0f));
  std::filesystem::resize_file(file, 999 * sizeof(float));  // cut short
  next_worker();
  EXPECT_EQ(filled<float>(1000, 7, -1.0f, 1.0f), expected_draws<float>(1000, 7, -1.0f, 1.0f));
}

}  // namespace

// for_each_index (report/parallel.h): every index once, whatever the threads, and the fault of the
// lowest index that threw, as the loop it replaces would report.
#include "report/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using gbx::tools::for_each_index;

TEST(ForEachIndex, RunsEachIndexOnce) {
  for (const unsigned threads : {1U, 2U, 7U}) {
    std::vector<std::atomic<int>> calls(1000);
    for_each_index(calls.size(), threads, [&](std::size_t i) { ++calls[i]; });
    for (std::size_t i = 0; i < calls.size(); ++i) ASSERT_EQ(calls[i].load(), 1) << i << " on " << threads;
  }
  for_each_index(0, 4, [](std::size_t) { FAIL() << "no index to run"; });
}

TEST(ForEachIndex, RethrowsTheLowestFault) {
  for (const unsigned threads : {1U, 2U, 8U}) {
    try {
      for_each_index(200, threads, [](std::size_t i) {
        if (i == 17 || i == 90 || i == 150) throw std::runtime_error("index " + std::to_string(i));
      });
      FAIL() << "nothing thrown on " << threads;
    } catch (const std::runtime_error& error) {
      EXPECT_EQ(std::string(error.what()), "index 17") << threads;
    }
  }
}

TEST(ForEachIndex, WorkerCountIsBoundedByTheItems) {
  EXPECT_EQ(gbx::tools::worker_count(0), 1U);
  EXPECT_EQ(gbx::tools::worker_count(1), 1U);
  EXPECT_GE(gbx::tools::worker_count(1000), 1U);
  EXPECT_LE(gbx::tools::worker_count(3), 3U);
}

}  // namespace

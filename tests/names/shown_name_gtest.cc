// shown_benchmark_name (text/benchmark_name.h): Google Benchmark's name less gbx's constant suffix, and
// nothing else taken away.
#include "text/benchmark_name.h"

#include <gtest/gtest.h>

namespace {

using gbx::shown_benchmark_name;

TEST(ShownName, DropsGbxsTrailingSuffix) {
  EXPECT_EQ(shown_benchmark_name("saxpy/loop/n:4096/a:2/iterations:1/manual_time"), "saxpy/loop/n:4096/a:2");
  EXPECT_EQ(shown_benchmark_name("reduce/naive/n:4096/iterations:1/manual_time"), "reduce/naive/n:4096");
  EXPECT_EQ(shown_benchmark_name(std::string("scale/loop") + gbx::kGbxNameSuffix), "scale/loop");
}

TEST(ShownName, KeepsAnAggregatesStatistic) {
  EXPECT_EQ(shown_benchmark_name("faults/first/iterations:1/manual_time_mean"), "faults/first_mean");
  EXPECT_EQ(shown_benchmark_name("r/n:8/iterations:1/manual_time_my_statistic"), "r/n:8_my_statistic");
}

TEST(ShownName, LeavesEveryOtherNameAsItIs) {
  for (const char* name : {"BM_copy/4096", "BM_manual/n:2048/manual_time", "BM_fill<float>", "Vectors/sum/1024",
                           "BM_x/iterations:100", "BM_x/iterations:1/manual_time/threads:2",
                           "BM_x/iterations:1/manual_time_mean/extra", "", "/iterations:1/manual_timer"}) {
    EXPECT_EQ(shown_benchmark_name(name), name);
  }
}

TEST(ShownName, DropsOnlyTheLastSuffix) {
  EXPECT_EQ(shown_benchmark_name("a/iterations:1/manual_time/iterations:1/manual_time"), "a/iterations:1/manual_time");
}

}  // namespace

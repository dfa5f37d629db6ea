// The record's gbx.stats.hierarchical object (analysis/run_analysis.h): its keys, and null for what
// one process cannot know.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "analysis/run_analysis.h"

namespace {

TEST(HierarchicalJson, TheRecordObjectWithNullsForWhatIsUnknown) {
  const std::vector<std::vector<double>> groups = {
      {1.00, 1.01, 0.99, 1.02}, {1.05, 1.04, 1.06, 1.05}, {0.97, 0.98, 0.96, 0.99}, {1.01, 1.00, 1.02, 1.01}};
  const auto several = gbx::hierarchical_median(groups, 1e-9);
  ASSERT_TRUE(several && several->plan);
  const nlohmann::json j = gbx::hierarchical_json(several);
  EXPECT_EQ(j["processes"], 4);
  EXPECT_EQ(j["samples_per_process"], nlohmann::json::array({4, 4, 4, 4}));
  EXPECT_EQ(j["median"].get<double>(), several->median);
  EXPECT_EQ(j["lower"].get<double>(), several->lower);
  EXPECT_EQ(j["method"], "log-t-process-medians");
  EXPECT_EQ(j["resolution_seconds"].get<double>(), 1e-9);
  EXPECT_EQ(j["single_process"], false);
  EXPECT_EQ(j["between_process_cv"].get<double>(), *several->between_process_cv);
  EXPECT_EQ(j["plan"]["processes"], several->plan->processes);
  EXPECT_EQ(j["plan"]["samples_per_process"], several->plan->samples_per_process);
  EXPECT_EQ(j["plan"]["reachable"], several->plan->reachable);

  const nlohmann::json one = gbx::hierarchical_json(gbx::hierarchical_median({groups[0]}, 0.0));
  EXPECT_EQ(one["single_process"], true);
  EXPECT_EQ(one["processes"], 1);
  EXPECT_TRUE(one["between_process_cv"].is_null());
  EXPECT_TRUE(one["plan"].is_null());
  EXPECT_TRUE(gbx::hierarchical_json(std::nullopt).is_null());
}

}  // namespace

// The load charts and knee summary (report/load_chart.h) on records whose sweeps ran on a simulated
// clock, so that every value is known: deterministic service, constant arrivals.
#include <string>

#include <gtest/gtest.h>

#include "extensions/load/load_engine.h"
#include "report/load_chart.h"
#include "tests/load/simulated_pool.h"
#include "writer/load_json.h"

namespace gbx {
namespace {

nlohmann::json entry(const std::string& problem, const std::string& variant, double service_seconds) {
  testing::SimulatedPool pool(2, testing::deterministic_service(service_seconds));
  LoadPlan plan;
  plan.concurrency = {1, 2};
  plan.offered_load = {0.5, 0.9, 1.2};
  plan.arrivals = ArrivalProcess::constant;
  plan.latency_bound_seconds = 0.0015;
  plan.requests = 400;
  plan.max_seconds_per_level = 1e9;
  detail::LoadResult result = run_load_sweep(pool, plan);
  result.workers = "threads";
  return {{"name", variant},
          {"gbx", {{"problem", problem}, {"variant", variant}, {"region", "cpu"}, {"load", load_json(result)}}}};
}

nlohmann::json record() {
  nlohmann::json benchmarks = nlohmann::json::array();
  benchmarks.push_back(entry("reduce/n=4096", "fast", 0.001));
  benchmarks.push_back(entry("reduce/n=4096", "slow", 0.002));
  benchmarks.push_back(entry("reduce/n=4096", "fast", 0.001));  // a second repetition: not plotted twice
  benchmarks.push_back({{"name", "plain"}, {"gbx", {{"problem", "gemm/256"}, {"variant", "x"}}}});
  return {{"benchmarks", benchmarks}};
}

TEST(LoadChart, PointsPerVariantAndLevel) {
  const auto r = record();
  EXPECT_EQ(load_problems(r), (std::vector<std::string>{"reduce/n=4096"}));
  const auto points = load_points(r, "reduce/n=4096");
  ASSERT_EQ(points.size(), 10u);  // 2 variants x (2 closed + 3 open)
  EXPECT_EQ(points[0].label, "c=1");
  EXPECT_EQ(points[1].label, "c=2");
  EXPECT_EQ(points[2].label, "0.5x");
  EXPECT_EQ(points[4].label, "1.2x");
  // Two workers of 1 ms each: 2000 runs/s, every request 1 ms.
  EXPECT_NEAR(points[1].throughput, 2000.0, 1e-6);
  EXPECT_NEAR(points[1].p99_seconds, 0.001, 1e-12);
  EXPECT_TRUE(points[4].saturated);
  EXPECT_FALSE(points[3].saturated);
  EXPECT_EQ(points[5].variant, "slow");
  EXPECT_TRUE(load_points(r, "gemm/256").empty());
}

TEST(LoadChart, ChartsDrawTheBound) {
  const auto r = record();
  const auto chart = latency_throughput_chart(r, "reduce/n=4096");
  ASSERT_TRUE(chart.is_object());
  EXPECT_EQ(chart.at("data").at("values").size(), 10u);
  bool bound_drawn = false;
  for (const auto& layer : chart.at("layer")) {
    if (layer.at("mark").at("type") == "rule" && layer.at("encoding").at("y").contains("datum")) {
      EXPECT_DOUBLE_EQ(layer.at("encoding").at("y").at("datum").get<double>(), 1500.0);  // 1.5 ms in µs
      bound_drawn = true;
    }
  }
  EXPECT_TRUE(bound_drawn);
  const auto p99 = p99_offered_load_chart(r, "reduce/n=4096");
  ASSERT_TRUE(p99.is_object());
  EXPECT_EQ(p99.at("data").at("values").size(), 6u);  // open-loop levels only
  EXPECT_TRUE(latency_throughput_chart(r, "gemm/256").is_null());
}

TEST(LoadChart, KneeIsTheMostThroughputPerLatency) {
  const std::string markdown = load_knee_markdown(record());
  // fast: c=2 gives 2000/s at 1 ms (power 2e6), above 0.9 x 1000/s at 1 ms. The bound, 1.5 ms, holds
  // for the unsaturated open-loop levels: 0.9 x 1000/s = 900/s. It saturates at 1.2 x 1000/s.
  EXPECT_NE(markdown.find("| fast | c=2 | 2000/s | 1 ms | 1 ms | 1200/s | 900/s |"), std::string::npos) << markdown;
  // slow (2 ms): the bound is never met.
  EXPECT_NE(markdown.find("| slow | c=2 | 1000/s | 2 ms | 2 ms | 600/s | - |"), std::string::npos) << markdown;
  EXPECT_EQ(load_knee_markdown(nlohmann::json::object()), "");
}

}  // namespace
}  // namespace gbx

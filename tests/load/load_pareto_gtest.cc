// Throughput at the latency bound as a Pareto objective (analysis/pareto.h, docs/pareto.md).
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/pareto.h"

namespace gbx {
namespace {

ParetoCandidate candidate(const std::string& name, std::optional<double> throughput) {
  ParetoCandidate c;
  c.name = name;
  c.variant = name;
  // The same latency samples: within the noise of each other on latency.
  for (int i = 0; i < 40; ++i) c.latency_samples.push_back(1e-3 * (1.0 + 0.01 * (i % 7)));
  c.throughput_at_bound = throughput;
  return c;
}

bool lists_throughput_missing(const ParetoGroup& group) {
  return std::any_of(group.missing.begin(), group.missing.end(),
                     [](const MissingObjective& m) { return m.objective == "throughput_at_bound"; });
}

bool uses_throughput(const ParetoGroup& group) {
  return std::find(group.objectives.begin(), group.objectives.end(), "throughput_at_bound") != group.objectives.end();
}

TEST(LoadPareto, MoreThroughputAtTheBoundDominates) {
  const ParetoGroup group = analyze_pareto("p", {candidate("a", 900.0), candidate("b", 1200.0)});
  EXPECT_TRUE(uses_throughput(group));
  ASSERT_EQ(group.variants.size(), 2u);
  EXPECT_FALSE(group.variants[0].on_frontier);
  EXPECT_EQ(group.variants[0].dominated_by, std::optional<std::string>("b"));
  EXPECT_TRUE(group.variants[1].on_frontier);
  EXPECT_EQ(pareto_json({group})[0]["variants"][1]["throughput_at_bound_per_second"], 1200.0);
}

TEST(LoadPareto, WithoutSweepsTheObjectiveIsNotConsidered) {
  const ParetoGroup none = analyze_pareto("p", {candidate("a", std::nullopt), candidate("b", std::nullopt)});
  EXPECT_FALSE(uses_throughput(none));
  EXPECT_FALSE(lists_throughput_missing(none));
  EXPECT_TRUE(none.variants[0].on_frontier && none.variants[1].on_frontier);
  // One variant with a sweep, one without: left out and reported, not filled in.
  const ParetoGroup some = analyze_pareto("p", {candidate("a", 900.0), candidate("b", std::nullopt)});
  EXPECT_FALSE(uses_throughput(some));
  ASSERT_TRUE(lists_throughput_missing(some));
  for (const auto& m : some.missing) {
    if (m.objective == "throughput_at_bound") {
      EXPECT_EQ(m.variants, (std::vector<std::string>{"b"}));
    }
  }
}

}  // namespace
}  // namespace gbx

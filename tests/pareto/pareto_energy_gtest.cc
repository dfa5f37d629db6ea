// Energy per run as a Pareto objective: used when every variant has it, named missing when only
// some do, silent when none does (no counter was readable).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "analysis/pareto.h"

namespace gbx {
namespace {

ParetoCandidate candidate(const std::string& variant, std::optional<double> joules) {
  ParetoCandidate c;
  c.name = "bench/" + variant;
  c.variant = variant;
  for (int i = 0; i < 21; ++i) c.latency_samples.push_back(1e-3 * (1.0 + 0.01 * (i - 10) / 10.0));  // equal latency
  c.error = 1e-7;
  c.memory_bytes = 1000;
  c.memory_kind = "device_peak_bytes";
  c.energy_joules = joules;
  return c;
}

TEST(ParetoEnergy, LessEnergyAtTheSameLatencyDominates) {
  const auto group = analyze_pareto("p", {candidate("frugal", 0.5), candidate("hungry", 2.0)});
  EXPECT_EQ(group.objectives, (std::vector<std::string>{"latency", "error", "memory", "energy"}));
  ASSERT_EQ(group.variants.size(), 2u);
  EXPECT_TRUE(group.variants[0].on_frontier);
  EXPECT_FALSE(group.variants[1].on_frontier);
  EXPECT_EQ(group.variants[1].dominated_by, std::optional<std::string>("bench/frugal"));
  EXPECT_NE(pareto_json({group}).dump().find(R"("energy_joules":2.0)"), std::string::npos);
}

TEST(ParetoEnergy, SomeVariantsWithoutEnergyLeaveItOutAndAreNamed) {
  const auto group = analyze_pareto("p", {candidate("frugal", 0.5), candidate("unmetered", std::nullopt)});
  EXPECT_EQ(group.objectives, (std::vector<std::string>{"latency", "error", "memory"}));
  ASSERT_EQ(group.missing.size(), 1u);
  EXPECT_EQ(group.missing[0].objective, "energy");
  EXPECT_EQ(group.missing[0].variants, std::vector<std::string>{"bench/unmetered"});
  EXPECT_TRUE(group.variants[1].on_frontier);  // its unknown energy cannot make it lose
}

TEST(ParetoEnergy, NoVariantWithEnergyIsNotAMissingObjective) {
  const auto group = analyze_pareto("p", {candidate("a", std::nullopt), candidate("b", std::nullopt)});
  EXPECT_EQ(group.objectives, (std::vector<std::string>{"latency", "error", "memory"}));
  EXPECT_TRUE(group.missing.empty());
}

}  // namespace
}  // namespace gbx

// gbx compare pairs rows of a swept benchmark by their axes' values (gbx.axes), not by the spelling
// of their names: the same point matches when the axes were declared in another order.
#include <gtest/gtest.h>

#include <string>

#include "analysis/record_comparison.h"
#include "record/record_reader.h"
#include "tests/support/complete_record.h"

namespace {

nlohmann::json entry(const std::string& name, const nlohmann::json& axes, double scale) {
  nlohmann::json samples = nlohmann::json::array();
  for (int i = 0; i < 40; ++i) samples.push_back(scale * (1e-3 + 1e-6 * (i % 7)));
  return {{"name", name},
          {"run_type", "iteration"},
          {"real_time", scale * 1000.0},
          {"cpu_time", 1.0},
          {"time_unit", "us"},
          {"gbx",
           {{"problem", "sweep/n=" + axes["n"].dump()},
            {"variant", "loop"},
            {"region", "cpu"},
            {"precision", "fp32"},
            {"axes", axes},
            {"measurement", {{"timer", "cpu"}, {"cache", "hot"}}},
            {"samples", samples}}}};
}

gbx::LoadedRecord record(const nlohmann::json& benchmarks) {
  nlohmann::json json = {{"context", {{"caches", nlohmann::json::array()}}},
                         {"benchmarks", benchmarks},
                         {"gbx", {{"schema_version", 1}, {"protocol", {{"cache", "hot"}}}}}};
  return gbx::read_record(gbx_test::complete_record(json), "test", gbx::SealRequirement::not_yet_sealed);
}

TEST(CompareByAxes, SamePointMatchesWhateverTheNameSays) {
  const nlohmann::json small = {{"n", 1024}, {"T", "float"}};
  const nlohmann::json large = {{"n", 4096}, {"T", "float"}};
  const auto base = record(nlohmann::json::array(
      {entry("sweep/loop/n:1024/T:float", small, 1.0), entry("sweep/loop/n:4096/T:float", large, 1.0)}));
  const auto candidate = record(nlohmann::json::array(
      {entry("sweep/loop/T:float/n:4096", large, 2.0), entry("sweep/loop/T:float/n:1024", small, 1.0)}));
  const auto comparison = gbx::tools::compare_loaded(base, candidate, 0.02, 0.05);
  EXPECT_TRUE(comparison.only_in_base.empty());
  EXPECT_TRUE(comparison.only_in_candidate.empty());
  ASSERT_EQ(comparison.rows.size(), 2u);
  // n = 4096 is the point that doubled, whichever position it holds in either record.
  EXPECT_EQ(comparison.rows[1].name, "sweep/loop/n:4096/T:float");
  ASSERT_TRUE(comparison.rows[1].ratio.has_value());
  EXPECT_NEAR(comparison.rows[1].ratio->ratio, 2.0, 0.01);
  ASSERT_TRUE(comparison.rows[0].ratio.has_value());
  EXPECT_NEAR(comparison.rows[0].ratio->ratio, 1.0, 0.01);
}

TEST(CompareByAxes, AnotherPointDoesNotMatch) {
  const auto base = record(nlohmann::json::array({entry("sweep/loop/n:1024", {{"n", 1024}}, 1.0)}));
  const auto candidate = record(nlohmann::json::array({entry("sweep/loop/n:1024", {{"n", 2048}}, 1.0)}));
  const auto comparison = gbx::tools::compare_loaded(base, candidate, 0.02, 0.05);
  EXPECT_TRUE(comparison.rows.empty());
  EXPECT_EQ(comparison.only_in_base.size(), 1u);
  EXPECT_EQ(comparison.only_in_candidate.size(), 1u);
}

}  // namespace

// gbx.load in the record (writer/load_json.h): valid against the schema's load definition, and
// read back unchanged (the path of a --gbx_processes child's sweep to its parent).
#include <algorithm>

#include <gtest/gtest.h>

#include "analysis/run_analysis.h"
#include "extensions/load/load_engine.h"
#include "record/record_schema.h"
#include "tests/load/simulated_pool.h"
#include "writer/json_record.h"
#include "writer/load_json.h"
#include "writer/run_record_wire.h"

namespace gbx {
namespace {

detail::LoadResult simulated_sweep() {
  testing::SimulatedPool pool(2, testing::exponential_service(0.001, 3));
  LoadPlan plan;
  plan.concurrency = {1, 2};
  plan.offered_load = {0.5, 1.3};
  plan.latency_bound_seconds = 0.01;
  plan.requests = 600;
  plan.max_seconds_per_level = 1e9;
  plan.find_peak = true;
  testing::SimulatedPool noop(2, testing::deterministic_service(0.0), 0.0, 1e-6, 1e-6);
  detail::LoadResult result = run_load_sweep(pool, plan, {}, &noop);
  result.workers = "threads";
  return result;
}

nlohmann::json load_schema() {
  nlohmann::json schema = {{"$ref", "#/$defs/load"}};
  schema["$defs"] = record_schema().at("$defs");
  return schema;
}

TEST(LoadRecord, SectionMatchesTheSchema) {
  const nlohmann::json j = load_json(simulated_sweep());
  EXPECT_EQ(schema_violation(load_schema(), j), "");
  EXPECT_EQ(j.at("closed_loop").size(), 2u);
  EXPECT_EQ(j.at("open_loop").size(), 2u);
  EXPECT_TRUE(j.at("open_loop").at(1).at("saturated").get<bool>());
  EXPECT_TRUE(j.at("error").is_null());
  // A wrong type is caught: the schema is not vacuous.
  nlohmann::json broken = j;
  broken["closed_loop"][0]["littles_law_violated"] = "no";
  EXPECT_NE(schema_violation(load_schema(), broken), "");
}

TEST(LoadRecord, ReadsBackUnchanged) {
  const nlohmann::json j = load_json(simulated_sweep());
  EXPECT_EQ(load_json(load_from_json(j)), j);
}

TEST(LoadRecord, NewFieldsAreWrittenAndSurviveTheProcessWire) {
  detail::RunRecord record;
  record.region = "cpu";
  record.measurement.samples = {1e-3};
  record.load = simulated_sweep();
  record.load->requested = false;
  const nlohmann::json j = load_json(*record.load);
  const nlohmann::json& closed = j.at("closed_loop").at(1);
  EXPECT_TRUE(closed.at("sampled_in_flight").is_object());
  EXPECT_TRUE(closed.at("independent_littles_law").is_object());
  EXPECT_TRUE(closed.at("harness_overhead").at("per_request_seconds").is_number());
  EXPECT_EQ(closed.at("validity").at("queries_needed"), 459);
  EXPECT_TRUE(closed.at("validity").at("verdict").is_string());
  EXPECT_TRUE(j.at("peak_search").at("steps").is_array());
  EXPECT_FALSE(j.at("requested").get<bool>());
  // The child-to-parent wire of --gbx_processes carries all of it.
  const detail::RunRecord back = run_record_from_json(run_record_json(record));
  ASSERT_TRUE(back.load);
  EXPECT_EQ(load_json(*back.load), j);
  // A record written before these fields still reads.
  nlohmann::json old = j;
  old.erase("peak_search");
  old.erase("requested");
  old.erase("skipped");
  for (auto& level : old["closed_loop"]) {
    for (const char* key : {"sampled_in_flight", "independent_littles_law", "independent_littles_law_violated",
                            "harness_overhead", "validity"}) {
      level.erase(key);
    }
  }
  const detail::LoadResult read = load_from_json(old);
  EXPECT_TRUE(read.requested);
  EXPECT_FALSE(read.closed_loop.at(0).sampled_in_flight);
}

TEST(LoadRecord, RegisteredSweepRaisesNoFlag) {
  detail::RunRecord record;
  record.region = "cpu";
  record.measurement.samples = {1e-3, 1.1e-3, 0.9e-3};
  record.load = simulated_sweep();
  record.load->closed_loop[1].littles_law_violated = true;
  record.load->closed_loop[1].independent_littles_law_violated = true;
  record.load->closed_loop[1].overhead.exceeded = true;
  const auto load_flags = [](const RunAnalysis& a) {
    std::size_t n = 0;
    for (const auto& f : a.flags) {
      n += f.name == "littles_law_violated" || f.name == "independent_littles_law_violated" ||
           f.name == "harness_overhead";
    }
    return n;
  };
  EXPECT_EQ(load_flags(analyze_run(record)), 3u);  // asked for by the user: all three shown
  record.load->requested = false;
  EXPECT_EQ(load_flags(analyze_run(record)), 0u);  // the default suite's own: none
}

TEST(LoadRecord, EntryCarriesTheSectionOnlyWhenASweepRan) {
  detail::RunRecord record;
  record.problem = "p";
  record.variant = "v";
  record.region = "cpu";
  record.measurement.samples = {1e-3, 1.1e-3, 0.9e-3};
  EXPECT_FALSE(entry_json(record, false).contains("load"));
  record.load = simulated_sweep();
  const nlohmann::json entry = entry_json(record, false);
  ASSERT_TRUE(entry.contains("load"));
  EXPECT_EQ(entry.at("load").at("workers"), "threads");
}

TEST(LoadRecord, ViolatedLittlesLawRaisesAFlag) {
  detail::RunRecord record;
  record.region = "cpu";
  record.measurement.samples = {1e-3, 1.1e-3, 0.9e-3};
  record.load = simulated_sweep();
  const auto has_flag = [](const RunAnalysis& a) {
    return std::any_of(a.flags.begin(), a.flags.end(), [](const Flag& f) { return f.name == "littles_law_violated"; });
  };
  EXPECT_FALSE(has_flag(analyze_run(record)));
  record.load->closed_loop[1].littles_law_violated = true;
  record.load->closed_loop[1].littles_law->relative_gap = 0.25;
  const RunAnalysis analysis = analyze_run(record);
  ASSERT_TRUE(has_flag(analysis));
  for (const auto& f : analysis.flags) {
    if (f.name != "littles_law_violated") continue;
    EXPECT_EQ(f.value, std::optional<double>(0.25));
    EXPECT_NE(f.message.find("c=2"), std::string::npos) << f.message;
  }
}

}  // namespace
}  // namespace gbx

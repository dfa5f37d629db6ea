// The compare rule end to end on hand-built, sealed records with process groups: the process is the
// unit when both sides have several; one process on a side is never faster or slower; too few samples
// is never same; the exit codes; and gbx.process_samples read (and refused) by the record reader.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "cli/compare_command.h"
#include "record/record_reader.h"
#include "tests/support/sealed_record_file.h"

namespace {

using Groups = std::vector<std::vector<double>>;

// K processes of n samples: scale * 1 ms * exp(b_i + e_ij), b ~ N(0, between^2), e ~ N(0, within^2).
Groups simulate(std::uint64_t seed, std::size_t k, std::size_t n, double scale, double between = 0.03,
                double within = 0.01) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Groups groups(k);
  for (auto& group : groups) {
    const double offset = between * normal(engine);
    for (std::size_t j = 0; j < n; ++j) group.push_back(scale * 1e-3 * std::exp(offset + within * normal(engine)));
  }
  return groups;
}

// One benchmark "b" whose samples are the groups; process_samples written when there are two or more.
nlohmann::json record_json(const Groups& groups, double resolution = 1e-9, double batch = 1) {
  nlohmann::json samples = nlohmann::json::array();
  nlohmann::json process_samples = nlohmann::json::array();
  for (std::size_t p = 0; p < groups.size(); ++p) {
    for (double x : groups[p]) samples.push_back(x);
    process_samples.push_back({{"process", p}, {"pid", 100 + p}, {"position", 0}, {"count", groups[p].size()}});
  }
  nlohmann::json gbx = {
      {"problem", "p/n=1"},
      {"variant", "v"},
      {"region", "cpu"},
      {"precision", "fp32"},
      {"measurement", {{"timer", "cpu"}, {"cache", "hot"}, {"timer_resolution_seconds", resolution}, {"batch", batch}}},
      {"samples", samples}};
  if (groups.size() >= 2) gbx["process_samples"] = process_samples;
  return {{"context", {{"caches", nlohmann::json::array()}}},
          {"benchmarks",
           {{{"name", "b"},
             {"run_type", "iteration"},
             {"real_time", 1.0},
             {"cpu_time", 1.0},
             {"time_unit", "ms"},
             {"gbx", gbx}}}},
          {"gbx", {{"schema_version", 1}, {"protocol", {{"cache", "hot"}, {"warmup_runs", 10}}}}}};
}

struct Outcome {
  int code;
  std::string out;
  std::string err;
  nlohmann::json json;
};

Outcome compare(const nlohmann::json& base, const nlohmann::json& candidate) {
  gbx::tools::CompareOptions options;
  options.base = gbx_test::write_sealed_record("rule_base.json", base);
  options.candidate = gbx_test::write_sealed_record("rule_candidate.json", candidate);
  std::ostringstream out, err;
  Outcome o;
  o.code = gbx::tools::compare_records(options, out, err);
  o.out = out.str();
  o.err = err.str();
  options.format = "json";
  std::ostringstream json_out, json_err;
  gbx::tools::compare_records(options, json_out, json_err);
  if (o.code != 2) o.json = nlohmann::json::parse(json_out.str())["rows"][0];
  return o;
}

TEST(CompareRule, ProcessLevelTenPercentSlowerIsSlowerAndExitsOne) {
  const Outcome o = compare(record_json(simulate(1, 10, 30, 1.0)), record_json(simulate(2, 10, 30, 1.10)));
  EXPECT_EQ(o.code, 1) << o.out;
  EXPECT_EQ(o.json["verdict"], "slower") << o.out;
  EXPECT_EQ(o.json["unit"], "process");
  EXPECT_EQ(o.json["test"], "welch-t-log-process-medians");
  EXPECT_EQ(o.json["processes"]["base"], 10);
  EXPECT_NE(o.out.find("10 vs 10 processes"), std::string::npos) << o.out;
  EXPECT_NEAR(o.json["base_process_level"]["median"].get<double>(), 1e-3, 0.05e-3);
}

TEST(CompareRule, ProcessLevelSpeedUpIsFasterAndExitsZero) {
  const Outcome o = compare(record_json(simulate(3, 10, 30, 1.0)), record_json(simulate(4, 10, 30, 0.85)));
  EXPECT_EQ(o.code, 0) << o.out;
  EXPECT_EQ(o.json["verdict"], "faster") << o.out;
}

TEST(CompareRule, ProcessLevelAAIsNeverAChange) {
  // Between-process noise of 3% makes single processes differ by several percent; the process-level
  // interval is wide enough not to call that a change.
  for (std::uint64_t seed = 10; seed < 20; ++seed) {
    const Outcome o = compare(record_json(simulate(seed, 10, 30, 1.0)), record_json(simulate(seed + 100, 10, 30, 1.0)));
    EXPECT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(o.json["verdict"] == "same" || o.json["verdict"] == "inconclusive") << o.out;
  }
}

TEST(CompareRule, OneProcessOnASideIsUnreplicatedNeverSlower) {
  // The same 10% slowdown; the base has one process: exit 3 and the sentence says what to run.
  const Outcome o = compare(record_json(simulate(5, 1, 100, 1.0)), record_json(simulate(6, 10, 30, 1.10)));
  EXPECT_EQ(o.code, 3) << o.out;
  EXPECT_EQ(o.json["verdict"], "unreplicated") << o.out;
  EXPECT_EQ(o.json["unit"], "sample");
  EXPECT_NE(o.out.find("the base record has one process, so the variation between processes was not measured"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("--gbx_processes=10, or gbx ab --processes 10"), std::string::npos) << o.out;
  const Outcome other = compare(record_json(simulate(6, 10, 30, 1.0)), record_json(simulate(5, 1, 100, 1.10)));
  EXPECT_EQ(other.json["verdict"], "unreplicated");
  EXPECT_NE(other.out.find("the candidate record has one process"), std::string::npos) << other.out;
}

TEST(CompareRule, OneProcessWithinTheBandIsSameMarkedWithinOneProcess) {
  const Outcome o = compare(record_json(simulate(7, 1, 100, 1.0, 0.0)), record_json(simulate(7, 1, 100, 1.0, 0.0)));
  EXPECT_EQ(o.code, 0) << o.out;
  EXPECT_EQ(o.json["verdict"], "same");
  EXPECT_NE(o.out.find("(within one process)"), std::string::npos) << o.out;
}

TEST(CompareRule, TooFewSamplesAreInsufficientNeverSame) {
  // The case: one sample per side, ratio 1.01, once called "the same within 2%".
  const Outcome one = compare(record_json({{1.00e-3}}), record_json({{1.01e-3}}));
  EXPECT_EQ(one.code, 3) << one.out;
  EXPECT_EQ(one.json["verdict"], "insufficient") << one.out;
  EXPECT_NE(one.out.find("1 base and 1 candidate samples, fewer than 6"), std::string::npos) << one.out;
  // Five identical samples would give a zero-width interval inside the band; still insufficient.
  const Groups five = {{1e-3, 1e-3, 1e-3, 1e-3, 1e-3}};
  EXPECT_EQ(compare(record_json(five), record_json(simulate(8, 10, 30, 1.0))).json["verdict"], "insufficient");
  // Six is enough.
  const Groups six = {{1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3}};
  EXPECT_EQ(compare(record_json(six), record_json(six)).json["verdict"], "same");
}

TEST(CompareRule, QuantizedSamplesNeverGiveAZeroWidthRatio) {
  // Every sample is 3 ticks of 1 us in base and candidate: the ratio is 1 with a half-tick spread.
  const Groups ticks(5, std::vector<double>(20, 3e-6));
  const Outcome o = compare(record_json(ticks, 1e-6), record_json(ticks, 1e-6));
  const double lower = o.json["ratio"]["lower"];
  const double upper = o.json["ratio"]["upper"];
  EXPECT_NEAR(lower, (1.0 - 0.5 / 3.0) / (1.0 + 0.5 / 3.0), 1e-12);
  EXPECT_NEAR(upper, (1.0 + 0.5 / 3.0) / (1.0 - 0.5 / 3.0), 1e-12);
  EXPECT_EQ(o.json["verdict"], "inconclusive") << "a tick of 33% cannot show +/-2%";
  // A batch of 100 runs per sample divides the tick by 100.
  const Outcome batched = compare(record_json(ticks, 1e-4, 100), record_json(ticks, 1e-4, 100));
  EXPECT_NEAR(batched.json["ratio"]["upper"].get<double>(), (1.0 + 0.5 / 3.0) / (1.0 - 0.5 / 3.0), 1e-12);
  // The single-process median interval is widened too.
  const Outcome single =
      compare(record_json({std::vector<double>(20, 3e-6)}, 1e-6), record_json({std::vector<double>(20, 3e-6)}, 1e-6));
  EXPECT_NEAR(single.json["base_median"]["lower"].get<double>(), 2.5e-6, 1e-15);
  EXPECT_NEAR(single.json["base_median"]["upper"].get<double>(), 3.5e-6, 1e-15);
}

TEST(ProcessGroups, AbsentIsOneGroupAndRepetitionsJoinTheirProcess) {
  nlohmann::json record = record_json(simulate(9, 3, 4, 1.0));
  nlohmann::json repetition = record["benchmarks"][0];
  record["benchmarks"].push_back(repetition);
  const gbx::LoadedRecord loaded = gbx::load_record(gbx_test::write_sealed_record("groups.json", record));
  ASSERT_EQ(loaded.benchmarks.size(), 1u);
  EXPECT_EQ(loaded.benchmarks[0].samples.size(), 24u);
  ASSERT_EQ(loaded.benchmarks[0].process_samples.size(), 3u);
  EXPECT_EQ(loaded.benchmarks[0].process_samples[1].size(), 8u);
  EXPECT_DOUBLE_EQ(loaded.benchmarks[0].resolution_seconds, 1e-9);

  const nlohmann::json entry = {{"samples", {1, 2, 3}}};
  const auto one = gbx::read_process_groups("f.json", "benchmarks[0]", entry, 3);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].count, 3u);
}

TEST(ProcessGroups, BadGroupsAreRefusedWithTheFileAndTheField) {
  nlohmann::json record = record_json(simulate(9, 3, 4, 1.0));
  record["benchmarks"][0]["gbx"]["process_samples"][1]["count"] = 5;
  const Outcome o = compare(record_json(simulate(1, 3, 4, 1.0)), record);
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("rule_candidate.json: benchmarks[0].gbx.process_samples counts 13 samples, but gbx.samples "
                       "holds 12"),
            std::string::npos)
      << o.err;
  for (const nlohmann::json& bad : {nlohmann::json("x"), nlohmann::json::array({{{"process", -1}, {"count", 3}}}),
                                    nlohmann::json::array({{{"count", 3}}})}) {
    const nlohmann::json entry = {{"process_samples", bad}};
    EXPECT_THROW(gbx::read_process_groups("f.json", "benchmarks[0]", entry, 3), gbx::BadRecord);
  }
}

}  // namespace

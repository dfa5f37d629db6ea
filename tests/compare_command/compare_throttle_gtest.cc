// gbx compare never calls a throttled benchmark faster or slower without saying so.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cli/compare_command.h"
#include "tests/support/sealed_record_file.h"

namespace {

// One benchmark "b" of 10 processes x 30 samples of scale ms (a little spread), with the given flags.
nlohmann::json record_json(double scale, const nlohmann::json& flags) {
  nlohmann::json samples = nlohmann::json::array();
  nlohmann::json process_samples = nlohmann::json::array();
  for (int p = 0; p < 10; ++p) {
    for (int j = 0; j < 30; ++j) samples.push_back(scale * 1e-3 * (1.0 + 0.001 * ((p * 7 + j * 3) % 11)));
    process_samples.push_back({{"process", p}, {"pid", 100 + p}, {"position", 0}, {"count", 30}});
  }
  nlohmann::json gbx = {
      {"problem", "p/n=1"},
      {"variant", "v"},
      {"region", "device"},
      {"precision", "fp32"},
      {"measurement", {{"timer", "cuda_event"}, {"cache", "hot"}, {"timer_resolution_seconds", 1e-9}, {"batch", 1}}},
      {"samples", samples},
      {"process_samples", process_samples},
      {"flags", flags}};
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

std::string compare(const nlohmann::json& base, const nlohmann::json& candidate, nlohmann::json& row) {
  gbx::tools::CompareOptions options;
  options.base = gbx_test::write_sealed_record("throttle_base.json", base);
  options.candidate = gbx_test::write_sealed_record("throttle_candidate.json", candidate);
  std::ostringstream out, err, json;
  gbx::tools::compare_records(options, out, err);
  options.format = "json";
  gbx::tools::compare_records(options, json, err);
  row = nlohmann::json::parse(json.str())["rows"][0];
  return out.str();
}

TEST(CompareThrottle, ASlowerThrottledCandidateSaysSo) {
  const nlohmann::json throttled = {{{"flag", "throttled_power"}, {"value", 0.5}, {"message", "THROTTLED (power)"}},
                                    {{"flag", "clock_changed"}, {"value", 0.2}, {"message", "SM clock changed"}}};
  nlohmann::json row;
  const std::string out = compare(record_json(1.0, nlohmann::json::array()), record_json(1.2, throttled), row);
  EXPECT_EQ(row["verdict"], "slower") << out;
  EXPECT_EQ(row["throttled"], "candidate: throttled_power, clock_changed");
  EXPECT_NE(out.find("slower (throttled)"), std::string::npos) << out;
  EXPECT_NE(out.find("[THROTTLED (candidate: throttled_power, clock_changed)"), std::string::npos) << out;
}

TEST(CompareThrottle, UnthrottledRecordsCarryNoCaveat) {
  const nlohmann::json other = {{{"flag", "outliers"}, {"value", 1}, {"message", "1 Tukey outlier"}}};
  nlohmann::json row;
  const std::string out = compare(record_json(1.0, other), record_json(1.2, nlohmann::json::array()), row);
  EXPECT_EQ(row["verdict"], "slower") << out;
  EXPECT_TRUE(row["throttled"].is_null());
  EXPECT_EQ(out.find("THROTTLED"), std::string::npos) << out;
}

}  // namespace

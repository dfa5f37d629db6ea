// gbx trend on hand-built, sealed records: the change point of a planted step named with its run and
// commit, exit 1 when the latest runs are slower, 0 when they are faster or nothing changed, 2 on bad
// input.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cli/trend_command.h"
#include "tests/support/sealed_record_file.h"

namespace {

// Run `run` (1-based) of a history: one benchmark whose 30 samples sit at `level` milliseconds.
std::string write_run(int run, double level) {
  nlohmann::json samples = nlohmann::json::array();
  for (int i = 0; i < 30; ++i) samples.push_back(level * 1e-3 * (1.0 + 1e-4 * (i % 7)));
  char run_id[40];
  std::snprintf(run_id, sizeof run_id, "00000000-0000-4000-8000-%012d", run);
  char created[32];
  std::snprintf(created, sizeof created, "2026-11-%02dT10:00:00Z", run);
  nlohmann::json record = {
      {"context", {{"caches", nlohmann::json::array()}}},
      {"benchmarks",
       {{{"name", "reduce/pairwise/n:4096/iterations:1/manual_time"},
         {"run_type", "iteration"},
         {"real_time", level * 1000.0},
         {"cpu_time", level * 1000.0},
         {"time_unit", "us"},
         {"gbx",
          {{"problem", "reduce/n=4096"},
           {"variant", "pairwise"},
           {"region", "cpu"},
           {"precision", "fp32"},
           {"measurement", {{"timer", "cpu"}, {"cache", "hot"}, {"timer_resolution_seconds", 1e-9}, {"batch", 1}}},
           {"samples", samples}}}}}},
      {"gbx",
       {{"schema_version", 1},
        {"run_id", run_id},
        {"created_utc", created},
        {"command", {"bench_reduce"}},
        {"interrupted", false},
        {"protocol", {{"cache", "hot"}, {"warmup_runs", 10}, {"batch_resolution_factor", 100.0}}},
        {"environment", {{"source", {{"commit", "c0ffee" + std::to_string(run)}}}}}}}};
  return gbx_test::write_sealed_record("run" + std::to_string(run) + ".json", record);
}

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome trend(const std::vector<double>& levels, const std::string& format = "console") {
  gbx::tools::TrendOptions options;
  for (std::size_t i = 0; i < levels.size(); ++i)
    options.inputs.push_back(write_run(static_cast<int>(i + 1), levels[i]));
  options.format = format;
  std::ostringstream out, err;
  const int code = gbx::tools::trend_command(options, out, err);
  return {code, out.str(), err.str()};
}

TEST(Trend, AStepUpInTheLatestRunsIsARegression) {
  const Outcome o = trend({1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.08, 1.08, 1.08, 1.08});
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("reduce/pairwise/n:4096: 8.0% slower from run #7 (commit c0ffee7), 1.00 ms -> 1.08 ms"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("1 benchmark is slower in the latest runs than before"), std::string::npos) << o.out;
}

TEST(Trend, ARegressionFixedSinceIsNotOne) {
  const Outcome o = trend({1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.2, 1.2, 1.2, 1.2, 1.2, 1.2, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("20.0% slower from run #7"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("16.7% faster from run #13"), std::string::npos) << o.out;
}

TEST(Trend, AFlatHistoryHasNoChangePoint) {
  const Outcome o = trend({1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("0 of 1 benchmarks changed level over 8 runs"), std::string::npos) << o.out;
}

TEST(Trend, MarkdownHasATableRow) {
  const Outcome o = trend({2.0, 2.0, 2.0, 2.0, 2.0, 1.5, 1.5, 1.5, 1.5, 1.5}, "markdown");
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("| reduce/pairwise/n:4096 | 25.0% faster | #6 | `c0ffee6` | 2.00 ms → 1.50 ms |"),
            std::string::npos)
      << o.out;
}

TEST(Trend, BadInputExitsTwoNamingTheFault) {
  const Outcome two = trend({1.0, 1.0});
  EXPECT_EQ(two.code, 2);
  EXPECT_NE(two.err.find("gbx trend: 2 record(s) given; a trend needs three or more"), std::string::npos) << two.err;
  const Outcome format = trend({1.0, 1.0, 1.0}, "html");
  EXPECT_EQ(format.code, 2);
  EXPECT_NE(format.err.find("--format"), std::string::npos) << format.err;
  gbx::tools::TrendOptions options;
  options.inputs = {write_run(1, 1.0), write_run(2, 1.0), ::testing::TempDir() + "no_such_record.json"};
  std::ostringstream out, err;
  EXPECT_EQ(gbx::tools::trend_command(options, out, err), 2);
  EXPECT_NE(err.str().find("no_such_record.json"), std::string::npos) << err.str();
}

}  // namespace

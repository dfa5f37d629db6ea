// The report model on hand-made records: what it takes from the record and what it computes, plain
// Google Benchmark JSON, the comparison of two runs, the trend's date order, and the Pareto sentence.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "record/record_reader.h"
#include "report/report_model.h"
#include "tests/report/records.h"

namespace {

using gbx::tools::build_report_model;
using gbx::tools::ReportModel;
using report_test::Entry;
using report_test::json;

TEST(ReportModel, PlainJsonRepetitionsArePooledIntoOneRowWithTheMissingFactsListed) {
  json record = report_test::plain_record({{"BM_a", {100, 102, 98, 101, 99}}, {"BM_b", {50, 51}}});
  record["benchmarks"].push_back({{"name", "BM_err"},
                                  {"run_type", "iteration"},
                                  {"error_occurred", true},
                                  {"error_message", "boom"},
                                  {"real_time", 0},
                                  {"time_unit", "ns"}});
  const ReportModel model = build_report_model({report_test::write(record, "plain")});
  ASSERT_EQ(model.runs.size(), 1u);
  const auto& run = model.runs[0];
  EXPECT_FALSE(run.has_gbx);
  EXPECT_EQ(run.checksum_status, "none: plain Google Benchmark JSON");
  EXPECT_EQ(run.created, "2026-01-02T03:04:05+00:00") << "context.date stands in for created_utc";
  EXPECT_TRUE(run.run_id.empty());
  EXPECT_TRUE(model.pareto.empty());
  EXPECT_GE(run.missing_facts.size(), 6u);

  ASSERT_EQ(run.benchmarks.size(), 3u) << "two measured names (aggregates left out), then the skipped one";
  const auto& a = run.benchmarks[0];
  EXPECT_EQ(a.name, "BM_a");
  EXPECT_EQ(a.repetitions, 5u);
  EXPECT_EQ(a.count, 5u);
  EXPECT_DOUBLE_EQ(a.median, 100e-9) << "the median of the five repetitions' real_time, in seconds";
  ASSERT_TRUE(a.median_lower && a.median_upper);
  EXPECT_LE(*a.median_lower, a.median);
  EXPECT_GE(*a.median_upper, a.median);
  EXPECT_FALSE(a.accuracy_passed) << "plain JSON checks no accuracy";
  EXPECT_FALSE(a.memory_bytes);
  const auto& skipped = run.benchmarks[2];
  EXPECT_TRUE(skipped.skipped);
  EXPECT_EQ(skipped.skip_reason, "boom");
}

TEST(ReportModel, OneRepetitionTakesTheRecordedStatisticsAndFacts) {
  Entry e =
      report_test::entry("fam/fast/n:1/iterations:1/manual_time", "fam/n=1", "fast", {1e-3, 2e-3, 3e-3, 4e-3, 5e-3});
  e.median_ci = std::make_pair(2.5e-3, 3.7e-3);  // not what a bootstrap would give: proves it is read, not redone
  e.error = 3e-6;
  e.memory = 8192;
  e.gflops = 12.5;
  e.arithmetic_intensity = 4.0;
  e.gbytes = 3.125;
  e.flags = {"drift"};
  const ReportModel model =
      build_report_model({report_test::write(report_test::gbx_record({e}, "run-a", "2026-01-01T00:00:00Z"), "one")});
  const auto& run = model.runs[0];
  EXPECT_EQ(run.run_id, report_test::test_uuid("run-a"));
  EXPECT_EQ(run.checksum_status, "intact");
  EXPECT_TRUE(run.missing_facts.empty());
  const auto& row = run.benchmarks.at(0);
  EXPECT_EQ(row.label, "fam/fast/n:1") << "the console's name: Google Benchmark's less gbx's constant suffix";
  EXPECT_EQ(row.count, 5u);
  EXPECT_DOUBLE_EQ(row.median, 3e-3);
  EXPECT_DOUBLE_EQ(*row.median_lower, 2.5e-3);
  EXPECT_DOUBLE_EQ(*row.median_upper, 3.7e-3);
  EXPECT_DOUBLE_EQ(*row.rel_l2_error, 3e-6);
  EXPECT_TRUE(*row.accuracy_passed);
  EXPECT_DOUBLE_EQ(*row.memory_bytes, 8192);
  EXPECT_EQ(row.memory_kind, "host peak");
  EXPECT_DOUBLE_EQ(*row.gflops, 12.5);
  EXPECT_DOUBLE_EQ(*row.arithmetic_intensity, 4.0);
  ASSERT_EQ(row.flags.size(), 1u);
  EXPECT_EQ(row.flags[0].flag, "drift");
  EXPECT_EQ(row.samples.size(), 5u);
}

TEST(ReportModel, RepetitionsArePooledAndTheirRatesRescaledToThePooledMedian) {
  Entry first = report_test::entry("fam/v", "fam/n=1", "v", {1e-3, 1e-3, 1e-3});
  first.gflops = 10.0;  // at its own median, 1 ms
  first.error = 1e-7;
  first.memory = 100;
  Entry second = first;
  second.samples = {3e-3, 3e-3, 3e-3};
  second.gflops = 10.0 / 3.0;
  second.error = 2e-7;
  second.passed = false;
  second.memory = 300;
  const ReportModel model = build_report_model(
      {report_test::write(report_test::gbx_record({first, second}, "run-r", "2026-01-01T00:00:00Z"), "reps")});
  ASSERT_EQ(model.runs[0].benchmarks.size(), 1u);
  const auto& row = model.runs[0].benchmarks[0];
  EXPECT_EQ(row.repetitions, 2u);
  EXPECT_EQ(row.count, 6u);
  EXPECT_DOUBLE_EQ(row.median, 2e-3) << "the median of all six samples";
  EXPECT_DOUBLE_EQ(*row.gflops, 5.0) << "10 GFLOP/s at 1 ms is 5 at the pooled 2 ms";
  EXPECT_DOUBLE_EQ(*row.rel_l2_error, 2e-7) << "the worst repetition";
  EXPECT_FALSE(*row.accuracy_passed) << "one failed repetition fails the row";
  EXPECT_DOUBLE_EQ(*row.memory_bytes, 300);
}

TEST(ReportModel, TwoRunsAreComparedFirstAgainstSecondAndThreeAreNot) {
  Entry e = report_test::entry("fam/v", "fam/n=1", "v", report_test::samples_around(1e-3));
  e.processes = 4;
  Entry slower = e;
  slower.samples = report_test::samples_around(1.5e-3);
  Entry one_process = slower;
  one_process.processes = 1;
  const std::string single =
      report_test::write(report_test::gbx_record({one_process}, "c", "2026-01-02T00:00:00Z"), "single");
  EXPECT_EQ(
      build_report_model({report_test::write(report_test::gbx_record({e}, "a", "2026-01-01T00:00:00Z"), "b0"), single})
          .comparison->rows[0]
          .verdict,
      gbx::Verdict::unreplicated)
      << "one process on a side: no slower verdict on within-process evidence";
  const std::string base = report_test::write(report_test::gbx_record({e}, "a", "2026-01-01T00:00:00Z"), "base");
  const std::string cand = report_test::write(report_test::gbx_record({slower}, "b", "2026-01-02T00:00:00Z"), "cand");
  const ReportModel two = build_report_model({base, cand});
  ASSERT_TRUE(two.comparison);
  EXPECT_TRUE(two.comparison->compatible());
  ASSERT_EQ(two.comparison->rows.size(), 1u);
  EXPECT_EQ(two.comparison->rows[0].verdict, gbx::Verdict::slower);
  EXPECT_NEAR(two.comparison->rows[0].ratio->ratio, 1.5, 0.01);
  EXPECT_TRUE(two.trends.empty()) << "a trend needs three runs";

  const ReportModel three = build_report_model({base, cand, base});
  EXPECT_FALSE(three.comparison);
  EXPECT_EQ(three.trends.size(), 1u);
}

TEST(ReportModel, IncompatibleRecordsAreStillComparedWithTheirDifferences) {
  Entry e = report_test::entry("fam/v", "fam/n=1", "v", report_test::samples_around(1e-3));
  Entry cold = e;
  cold.cache = "cold";
  const ReportModel model = build_report_model(
      {report_test::write(report_test::gbx_record({e}, "a", "2026-01-01T00:00:00Z"), "hot"),
       report_test::write(report_test::gbx_record({cold}, "b", "2026-01-02T00:00:00Z", "cold"), "cold")});
  ASSERT_TRUE(model.comparison);
  EXPECT_FALSE(model.comparison->compatible());
  ASSERT_EQ(model.comparison->rows.size(), 1u);
  EXPECT_TRUE(model.comparison->rows[0].incompatible);
  bool protocol_named = false;
  for (const auto& d : model.comparison->differences) protocol_named |= d.what == "protocol: cache";
  EXPECT_TRUE(protocol_named);
}

TEST(ReportModel, TheTrendFollowsTheDatesWithTheirOffsetsNotTheCommandLine) {
  // 10:30+02:00 is 08:30Z: the earliest, though it reads as the latest.
  const std::string late =
      report_test::write(report_test::plain_record({{"BM", {300, 301, 302}}}, "2026-01-01T09:30:00+00:00"), "late");
  const std::string early =
      report_test::write(report_test::plain_record({{"BM", {100, 101, 102}}}, "2026-01-01T10:30:00+02:00"), "early");
  const std::string middle = report_test::write(
      report_test::plain_record({{"BM", {200, 201, 202}}, {"BM_new", {5, 6, 7}}}, "2026-01-01T09:00:00Z"), "middle");
  const ReportModel model = build_report_model({late, early, middle});
  EXPECT_EQ(model.by_date, (std::vector<std::size_t>{1, 2, 0}));
  ASSERT_EQ(model.trends.size(), 2u);
  const auto& bm = model.trends[0];
  EXPECT_EQ(bm.name, "BM");
  ASSERT_EQ(bm.points.size(), 3u);
  EXPECT_EQ(bm.points[0].run, 1u);
  EXPECT_EQ(bm.points[2].run, 0u);
  EXPECT_DOUBLE_EQ(bm.points[0].median, 101e-9);
  EXPECT_NE(bm.sentence.find("in #2 (2026-01-01T10:30:00+02:00) to"), std::string::npos) << bm.sentence;
  EXPECT_NE(bm.sentence.find("+198.0%"), std::string::npos) << bm.sentence;
  EXPECT_NE(bm.sentence.find("do not overlap"), std::string::npos) << bm.sentence;
  EXPECT_EQ(model.trends[1].points.size(), 1u) << "BM_new is in one run only";
  EXPECT_NE(model.trends[1].sentence.find("measured only in run #3"), std::string::npos) << model.trends[1].sentence;
}

// Ten runs, a step of +30% at the sixth, far beyond each run's spread; BM_flat holds still.
std::vector<std::string> stepped_history(const std::string& tag) {
  std::vector<std::string> paths;
  for (int i = 0; i < 10; ++i) {
    const double level = i < 5 ? 100.0 : 130.0;
    const std::string date = "2026-01-01T0" + std::to_string(i) + ":00:00Z";
    paths.push_back(report_test::write(
        report_test::plain_record({{"BM", {level, level + 1, level + 2}}, {"BM_flat", {50, 51, 52}}}, date),
        tag + std::to_string(i)));
  }
  return paths;
}

TEST(ReportModel, TheTrendFindsAPlantedStepAndNoneInAFlatSeries) {
  const ReportModel model = build_report_model(stepped_history("run"));
  ASSERT_EQ(model.trends.size(), 2u);
  const auto& stepped = model.trends[0];
  ASSERT_EQ(stepped.name, "BM");
  ASSERT_EQ(stepped.change_points.size(), 1u);
  EXPECT_EQ(stepped.change_points[0].index, 5u);
  EXPECT_NEAR(stepped.change_points[0].relative_change, 0.30, 0.01);
  EXPECT_LT(stepped.change_points[0].p_value, 0.05);
  EXPECT_EQ(model.trends[1].name, "BM_flat");
  EXPECT_TRUE(model.trends[1].change_points.empty());
}

TEST(ReportModel, Iso8601TimesParseWithTheirOffsets) {
  using gbx::tools::parse_iso8601;
  EXPECT_EQ(parse_iso8601("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_iso8601("1970-01-02T00:00:01"), 86401);
  EXPECT_EQ(parse_iso8601("2000-03-01T00:00:00Z"), 951868800);  // after a leap day
  EXPECT_EQ(*parse_iso8601("2026-11-30T04:17:41+01:00") + 3600, *parse_iso8601("2026-11-30T04:17:41Z"));
  EXPECT_EQ(parse_iso8601("2026-11-30T04:17:41.250Z"), parse_iso8601("2026-11-30T04:17:41Z"));
  EXPECT_FALSE(parse_iso8601(""));
  EXPECT_FALSE(parse_iso8601("yesterday"));
  EXPECT_FALSE(parse_iso8601("2026-13-01T00:00:00Z"));
  EXPECT_FALSE(parse_iso8601("2026-11-30T04:17:41 CET"));
}

TEST(ReportModel, ABadRecordIsRefusedNamingTheFileAndTheFault) {
  Entry e = report_test::entry("fam/v", "fam/n=1", "v", report_test::samples_around(1e-3));
  json record = report_test::gbx_record({e}, "a", "2026-01-01T00:00:00Z");
  record["benchmarks"][0]["gbx"]["samples"][0] = 1.0;  // after the seal
  const std::string tampered = report_test::write(record, "tampered");
  try {
    build_report_model({tampered});
    FAIL() << "a tampered record was accepted";
  } catch (const gbx::BadRecord& error) {
    EXPECT_NE(std::string(error.what()).find(tampered), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("checksum mismatch"), std::string::npos) << error.what();
  }
  EXPECT_THROW(build_report_model({::testing::TempDir() + "no-such-record.json"}), gbx::BadRecord);
}

TEST(ReportModel, TheRecordsVariantsGiveParetoGroups) {
  Entry fast = report_test::entry("fam/fast", "fam/n=1", "fast", report_test::samples_around(1e-3));
  Entry slow = report_test::entry("fam/slow", "fam/n=1", "slow", report_test::samples_around(5e-3));
  Entry alone = report_test::entry("other/x", "other/n=1", "x", report_test::samples_around(1e-3));
  const ReportModel model = build_report_model(
      {report_test::write(report_test::gbx_record({fast, slow, alone}, "a", "2026-01-01T00:00:00Z"), "pareto")});
  const auto& groups = model.pareto;
  const auto fam = std::find_if(groups.begin(), groups.end(), [](const auto& g) { return g.problem == "fam/n=1"; });
  ASSERT_NE(fam, groups.end());
  EXPECT_EQ(fam->variants.size(), 2u);
  EXPECT_EQ(gbx::tools::pareto_sentence(*fam),
            "On fam/n=1, fast is on the frontier (fastest); slow is dominated by fast.");
}

gbx::ParetoVariant variant(const std::string& name, double latency, double error, double memory) {
  gbx::ParetoVariant v;
  v.name = "bench/" + name;  // the analysis knows variants by benchmark name; sentences use the label
  v.variant = name;
  v.latency_median = v.latency_lower = v.latency_upper = latency;
  v.error = error;
  v.memory_bytes = memory;
  v.on_frontier = true;
  return v;
}

TEST(ReportModel, TheParetoSentenceNamesTheFrontierItsRolesAndEveryOtherVariant) {
  gbx::ParetoGroup group;
  group.problem = "gemm/m=8";
  group.objectives = {"latency", "error", "memory"};
  group.variants = {variant("a", 1.0, 1e-3, 100), variant("b", 2.0, 1e-6, 100), variant("c", 3.0, 1e-3, 100)};
  group.variants[2].on_frontier = false;
  group.variants[2].dominated_by = "bench/a";
  gbx::ParetoCandidate broken;
  broken.name = "bench/broken";
  broken.variant = "broken";
  broken.accuracy_failed = true;
  group.failed.push_back(broken);
  EXPECT_EQ(gbx::tools::pareto_sentence(group),
            "On gemm/m=8, a and b are on the frontier (a fastest, b most accurate); c is dominated by a; broken "
            "failed its accuracy check and is left out.")
      << "memory is tied, so no variant is named for it";

  group.objectives = {"latency", "memory"};
  group.missing = {{"error", {"bench/a", "bench/b"}}};
  group.variants[1].memory_bytes = 50;
  EXPECT_EQ(gbx::tools::pareto_sentence(group),
            "On gemm/m=8, a and b are on the frontier (a fastest, b least memory); c is dominated by a; broken "
            "failed its accuracy check and is left out; error was not compared (not recorded for a and b).");
}

TEST(ReportModel, BenchmarksThatCouldNotRunAreReadFromNotRunAndGroupedByReason) {
  Entry measured = report_test::entry("reduce/cpu/n:8", "reduce/n=8", "cpu", report_test::samples_around(1e-3));
  const json record = report_test::with_not_run(
      report_test::gbx_record({measured}, "not-run", "2026-01-01T00:00:00Z"),
      {{"reduce/cub/n:8/iterations:1/manual_time", "reduce/n=8", "cub", "no CUDA device (cudaGetDeviceCount: 100)",
        "no_cuda_device"},
       {"multi/nccl/n:8", "multi/n=8", "nccl", "needs two processes", "unavailable"},
       {"reduce/warp/n:8", "reduce/n=8", "warp", "no CUDA device (cudaGetDeviceCount: 100)", "no_cuda_device"}});
  const ReportModel model = build_report_model({report_test::write(record, "record")});
  const auto& run = model.runs[0];
  ASSERT_EQ(run.benchmarks.size(), 1u) << "the not-run benchmarks are no rows of results";
  ASSERT_EQ(run.not_run.size(), 3u);
  EXPECT_EQ(run.not_run[0].label, "reduce/cub/n:8");
  EXPECT_EQ(run.not_run[0].family, "reduce/cub");
  EXPECT_EQ(run.not_run[1].reason_code, "unavailable");
  const auto reasons = gbx::tools::not_run_reasons(run);
  ASSERT_EQ(reasons.size(), 2u) << "one per reason, in the order first met";
  EXPECT_EQ(reasons[0].sentence, "2 CUDA benchmarks not run: no CUDA device (cudaGetDeviceCount: 100)");
  ASSERT_EQ(reasons[0].rows.size(), 2u);
  EXPECT_EQ(reasons[0].rows[1]->name, "reduce/warp/n:8");
  EXPECT_EQ(reasons[1].sentence, "1 benchmark not run: needs two processes") << "not a CUDA code: not called CUDA";
}

TEST(ReportModel, ARecordFromBeforeNotRunKeepsItsSkippedRows) {
  Entry measured = report_test::entry("reduce/cpu/n:8", "reduce/n=8", "cpu", report_test::samples_around(1e-3));
  const json record =
      report_test::with_skipped_entry(report_test::gbx_record({measured}, "old", "2026-01-01T00:00:00Z"),
                                      {"reduce/cub/n:8", "reduce/n=8", "cub", "no CUDA device", "no_cuda_device"});
  const ReportModel model = build_report_model({report_test::write(record, "record")});
  const auto& run = model.runs[0];
  EXPECT_TRUE(run.not_run.empty());
  ASSERT_EQ(run.benchmarks.size(), 2u);
  EXPECT_TRUE(run.benchmarks[1].skipped);
  EXPECT_EQ(run.benchmarks[1].skip_reason, "no CUDA device");
}

TEST(ReportModel, TheFlagsPresentAreListedOnceInTheOrderMet) {
  Entry a = report_test::entry("f/a", "f/n=1", "a", report_test::samples_around(1e-3));
  a.flags = {"drift", "outliers"};
  Entry b = report_test::entry("f/b", "f/n=1", "b", report_test::samples_around(2e-3));
  b.flags = {"outliers", "slow_start"};
  const ReportModel model = build_report_model(
      {report_test::write(report_test::gbx_record({a, b}, "flags", "2026-01-01T00:00:00Z"), "record")});
  EXPECT_EQ(gbx::tools::flags_present(model.runs), (std::vector<std::string>{"drift", "outliers", "slow_start"}));
}

}  // namespace

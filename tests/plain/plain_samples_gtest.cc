// The plain benchmark's samples: Google Benchmark's repetitions turned into gbx rows, against values
// computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/protocol.h"
#include "model/sample_channel.h"
#include "reporters/plain_protocol.h"
#include "reporters/plain_samples.h"
#include "tests/support/reporter_run.h"

namespace {

using gbx_test::GbRun;

// A repetition of "BM_x/n:8" that ran `iterations` iterations in `real` seconds (`cpu` of CPU time).
GbRun repetition(double real, double cpu, std::int64_t iterations = 10) {
  GbRun run;
  run.run_name.function_name = "BM_x";
  run.run_name.args = "n:8";
  run.run_type = GbRun::RT_Iteration;
  run.iterations = iterations;
  run.real_accumulated_time = real;
  run.cpu_accumulated_time = cpu;
  run.time_unit = benchmark::kNanosecond;
  run.statistics = nullptr;  // Run() leaves it unset; Google Benchmark's standard statistics apply
  return run;
}

GbRun aggregate(const std::string& name) {
  GbRun run = repetition(0.0, 0.0);
  run.run_type = GbRun::RT_Aggregate;
  run.aggregate_name = name;
  return run;
}

gbx::PlainLayout layout(std::int64_t warmup, std::int64_t samples, std::int64_t groups) {
  gbx::PlainLayout l;
  l.warmup = warmup;
  l.samples = samples;
  l.groups = groups;
  return l;
}

TEST(PlainSamples, WarmUpDroppedAndEachRepetitionOneSample) {
  // 1 warm-up + 3 samples of 10 iterations: 9 s (warm-up), then 1, 3 and 2 s: 0.1, 0.3, 0.2 s per iteration.
  std::vector<GbRun> runs = {repetition(9.0, 9.0), repetition(1.0, 0.5), repetition(3.0, 1.5),
                             repetition(2.0, 1.0), aggregate("mean"),    aggregate("median")};
  runs[1].counters["bytes_per_second"] = benchmark::Counter(100.0);  // CPU time: 100 B/s * 0.05 s = 5 B per iteration
  runs[2].counters["bytes_per_second"] = benchmark::Counter(40.0);   // 40 * 0.15 = 6
  runs[3].counters["bytes_per_second"] = benchmark::Counter(70.0);   // 70 * 0.1 = 7
  const gbx::PlainRows rows = gbx::collapse_plain_runs(runs, layout(1, 3, 1));
  ASSERT_TRUE(rows.plain);
  ASSERT_EQ(rows.runs.size(), 1u);  // one group: Google Benchmark's aggregates go
  const auto& record = *rows.records[0];
  EXPECT_EQ(record.measurement.samples, (std::vector<double>{0.1, 0.3, 0.2}));
  EXPECT_EQ(record.measurement.batch, 10);
  EXPECT_EQ(record.measurement.warmup_runs, 10);
  EXPECT_DOUBLE_EQ(record.measurement.cpu_seconds_per_run, 0.1);
  EXPECT_DOUBLE_EQ(record.bytes_per_run, 6.0);
  EXPECT_EQ(record.problem, "BM_x/n:8");
  EXPECT_EQ(record.harness, "google_benchmark");
  EXPECT_EQ(record.measurement.timer, gbx::detail::TimerKind::host_wall);
  ASSERT_EQ(record.axes.size(), 1u);
  EXPECT_EQ(record.axes[0].name, "n");
  EXPECT_EQ(record.axes[0].integer, 8);
  // The row: the median (0.2 s) per iteration, the median rate, and the samples counted.
  EXPECT_DOUBLE_EQ(rows.runs[0].real_accumulated_time / 10.0, 0.2);
  EXPECT_DOUBLE_EQ(rows.runs[0].cpu_accumulated_time / 10.0, 0.1);
  EXPECT_DOUBLE_EQ(rows.runs[0].counters.at("bytes_per_second").value, 70.0);
  EXPECT_DOUBLE_EQ(rows.runs[0].counters.at("samples").value, 3.0);
  EXPECT_EQ(rows.runs[0].repetitions, 1);
}

TEST(PlainSamples, GroupsAreTheUsersRepetitionsWithAggregatesOverTheirMedians) {
  // No warm-up, 2 groups of 3: medians 0.2 and 0.5 s per iteration (10 iterations each).
  std::vector<GbRun> runs = {repetition(1.0, 1.0), repetition(3.0, 3.0), repetition(2.0, 2.0), repetition(5.0, 5.0),
                             repetition(4.0, 4.0), repetition(6.0, 6.0), aggregate("mean"),    aggregate("stddev")};
  const gbx::PlainRows rows = gbx::collapse_plain_runs(runs, layout(0, 3, 2));
  ASSERT_EQ(rows.runs.size(), 4u);
  EXPECT_DOUBLE_EQ(rows.runs[0].real_accumulated_time / 10.0, 0.2);
  EXPECT_DOUBLE_EQ(rows.runs[1].real_accumulated_time / 10.0, 0.5);
  EXPECT_EQ(rows.runs[1].repetition_index, 1);
  EXPECT_EQ(rows.runs[2].run_type, GbRun::RT_Aggregate);
  // An aggregate's accumulated time is its value times its iterations (the groups), as Google Benchmark's.
  EXPECT_EQ(rows.runs[2].iterations, 2);
  EXPECT_DOUBLE_EQ(rows.runs[2].real_accumulated_time / 2.0, 0.35);  // mean of 0.2 and 0.5
  // Sample standard deviation of {0.2, 0.5}: 0.3 / sqrt(2).
  EXPECT_NEAR(rows.runs[3].real_accumulated_time / 2.0, 0.3 / std::sqrt(2.0), 1e-12);
  ASSERT_TRUE(rows.records[2].has_value());  // the aggregate names the problem, as a gbx one does
  EXPECT_EQ(rows.records[2]->problem, "BM_x/n:8");
}

TEST(PlainSamples, RepetitionsTheBenchmarkSetItselfAreAllSamples) {
  std::vector<GbRun> runs = {repetition(1.0, 1.0), repetition(2.0, 2.0), aggregate("mean")};
  const gbx::PlainRows rows = gbx::collapse_plain_runs(runs, layout(1, 30, 1));
  ASSERT_EQ(rows.runs.size(), 1u);
  EXPECT_EQ(rows.records[0]->measurement.samples, (std::vector<double>{0.1, 0.2}));
  EXPECT_EQ(rows.records[0]->measurement.warmup_runs, 0);
}

TEST(PlainSamples, ManualTimeIsRecordedAsTheTimer) {
  std::vector<GbRun> runs = {repetition(1.0, 1.0), repetition(2.0, 2.0)};
  for (auto& run : runs) run.run_name.time_type = "manual_time";
  const gbx::PlainRows rows = gbx::collapse_plain_runs(runs, layout(0, 2, 1));
  EXPECT_EQ(rows.records[0]->measurement.timer, gbx::detail::TimerKind::manual);
}

TEST(PlainSamples, AFailedInstanceIsOneRowWithoutSamples) {
  std::vector<GbRun> runs = {repetition(1.0, 1.0), repetition(2.0, 2.0)};
  gbx_test::set_run_error(runs[1], "out of memory");
  const gbx::PlainRows rows = gbx::collapse_plain_runs(runs, layout(0, 2, 1));
  ASSERT_EQ(rows.runs.size(), 1u);
  EXPECT_FALSE(rows.records[0].has_value());
}

TEST(PlainSamples, GbxRunsAreLeftAlone) {
  std::vector<GbRun> runs = {repetition(1.0, 1.0)};
  runs[0].report_label = gbx::record_label(7);
  EXPECT_FALSE(gbx::collapse_plain_runs(runs, layout(0, 1, 1)).plain);
}

TEST(PlainSamples, AxesFromNamedAndPositionalArguments) {
  const auto axes = gbx::axes_from_run_args("m:64/128/kind:abc");
  ASSERT_EQ(axes.size(), 3u);
  EXPECT_EQ(axes[0].name, "m");
  EXPECT_EQ(axes[0].integer, 64);
  EXPECT_EQ(axes[1].name, "arg1");
  EXPECT_EQ(axes[1].integer, 128);
  EXPECT_EQ(axes[2].kind, gbx::detail::AxisValue::Kind::text);
}

TEST(PlainProtocol, MinTimeIsSpreadOverTheSamplesAndRepetitionsBecomeGroups) {
  gbx::detail::Protocol protocol;
  protocol.min_samples = 20;
  const auto plan =
      gbx::plan_plain_runs({"--benchmark_min_time=0.5", "--benchmark_repetitions=3", "--benchmark_filter=x"}, protocol);
  EXPECT_EQ(plan.layout.groups, 3);
  EXPECT_EQ(plan.layout.samples, 20);
  EXPECT_EQ(plan.layout.warmup, 1);
  EXPECT_EQ(plan.layout.total(), 61);
  // 0.5 s over 20 samples; Google Benchmark 1.8 on takes the unit.
  EXPECT_EQ(std::strtod(plan.layout.per_sample_min_time.c_str(), nullptr), 0.025);
  const auto has = [&plan](const std::string& arg) {
    return std::find(plan.args.begin(), plan.args.end(), arg) != plan.args.end();
  };
  EXPECT_TRUE(has("--benchmark_filter=x"));
  EXPECT_TRUE(has("--benchmark_min_time=" + plan.layout.per_sample_min_time));
  EXPECT_FALSE(has("--benchmark_min_time=0.5"));
}

TEST(PlainProtocol, IterationCountsApplyToEachRepetition) {
  const auto plan = gbx::plan_plain_runs({"--benchmark_min_time=100x"}, gbx::detail::Protocol{});
  // Google Benchmark 1.7 has no iteration counts: the flag is then left out (and refused at the run).
  EXPECT_EQ(plan.layout.per_sample_min_time, gbx::google_benchmark_takes_iteration_counts() ? "100x" : "");
}

TEST(PlainProtocol, BadValuesAreRefusedNamingTheFlag) {
  for (const std::string bad : {"--benchmark_min_time=-1", "--benchmark_min_time=abc", "--benchmark_repetitions=0",
                                "--benchmark_min_warmup_time=x"}) {
    try {
      gbx::plan_plain_runs({bad}, gbx::detail::Protocol{});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const gbx::detail::FlagError& error) {
      EXPECT_NE(std::string(error.what()).find(bad), std::string::npos) << error.what();
    }
  }
}

TEST(PlainProtocol, ContextIsTakenForAddCustomContextNotPassedOn) {
  const auto plan = gbx::plan_plain_runs({"--benchmark_context=build=ci42,host=a"}, gbx::detail::Protocol{});
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(plan.context, (Pairs{{"build", "ci42"}, {"host", "a"}}));
  for (const auto& arg : plan.args) EXPECT_EQ(arg.find("--benchmark_context"), std::string::npos) << arg;
  EXPECT_THROW(gbx::plan_plain_runs({"--benchmark_context=build"}, gbx::detail::Protocol{}), gbx::detail::FlagError);
}

TEST(PlainProtocol, NoWarmUpRepetitionWithoutWarmUp) {
  gbx::detail::Protocol protocol;
  protocol.warmup_runs = 0;
  EXPECT_EQ(gbx::plan_plain_runs({}, protocol).layout.warmup, 0);
}

}  // namespace

// patch_runs, patch_repetition and patch_aggregate on hand-made Google Benchmark runs: what they
// replace, what they leave, and aggregates recomputed from the repetitions' records.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "model/sample_channel.h"
#include "reporters/run_patching.h"
#include "tests/support/reporter_run.h"

namespace {

using gbx_test::GbRun;

gbx::detail::RunRecord record(const std::string& benchmark, std::int64_t arg, double cpu_per_run,
                              std::size_t samples = 4, std::int64_t batch = 3) {
  gbx::detail::RunRecord r;
  r.benchmark = benchmark;
  r.args = {arg};
  r.problem = benchmark + "/problem/" + std::to_string(arg);
  r.measurement.cpu_seconds_per_run = cpu_per_run;
  r.measurement.samples.assign(samples, 1e-6);
  r.measurement.batch = batch;
  return r;
}

GbRun iteration_run(const std::string& label, double cpu_accumulated = 123.0, std::int64_t iterations = 1) {
  GbRun run;
  run.run_type = GbRun::RT_Iteration;
  run.report_label = label;
  run.iterations = iterations;
  run.cpu_accumulated_time = cpu_accumulated;
  run.statistics = nullptr;  // Run() leaves it uninitialised
  return run;
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}
double largest(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

const std::vector<gbx_test::RunStatistic>& statistics() {
  static const std::vector<gbx_test::RunStatistic> stats = {
      {"mean", mean}, {"largest", largest}, {"share", largest, benchmark::kPercentage}};
  return stats;
}

GbRun aggregate_run(const std::string& label, const std::string& name, std::int64_t repetitions) {
  GbRun run;
  run.run_type = GbRun::RT_Aggregate;
  run.report_label = label;
  run.aggregate_name = name;
  run.repetitions = repetitions;
  run.iterations = repetitions;  // Google Benchmark counts an aggregate's iterations in repetitions
  run.cpu_accumulated_time = -1.0;
  run.statistics = &statistics();
  return run;
}

TEST(PatchRuns, IterationRunTakesTheRecordsCpuTimeLabelAndCounters) {
  gbx::SampleChannel channel;
  const auto id = channel.publish(record("reduce/naive", 4096, 2.5e-6, 7, 16));
  std::vector<GbRun> runs = {iteration_run(gbx::record_label(id), 0.75)};
  gbx::patch_runs(runs, channel);
  EXPECT_EQ(runs[0].report_label, "reduce/naive/problem/4096");
  EXPECT_EQ(runs[0].cpu_accumulated_time, 2.5e-6);
  ASSERT_EQ(runs[0].counters.count("samples"), 1u);
  ASSERT_EQ(runs[0].counters.count("batch"), 1u);
  EXPECT_EQ(runs[0].counters.at("samples").value, 7.0);
  EXPECT_EQ(runs[0].counters.at("batch").value, 16.0);
}

TEST(PatchRuns, CpuTimeScalesWithIterations) {
  gbx::SampleChannel channel;
  const auto id = channel.publish(record("reduce/naive", 1, 0.5));
  std::vector<GbRun> runs = {iteration_run(gbx::record_label(id), 9.0, 4)};
  gbx::patch_runs(runs, channel);
  EXPECT_EQ(runs[0].cpu_accumulated_time, 2.0);  // accumulated over 4 iterations of 0.5 per run
}

TEST(PatchRuns, LeavesForeignAndUnknownLabelsAlone) {
  gbx::SampleChannel channel;
  channel.publish(record("reduce/naive", 1, 0.5));
  std::vector<GbRun> runs = {iteration_run("hello", 9.0), iteration_run(gbx::record_label(5), 8.0),
                             iteration_run("", 7.0)};
  gbx::patch_runs(runs, channel);
  EXPECT_EQ(runs[0].report_label, "hello");
  EXPECT_EQ(runs[0].cpu_accumulated_time, 9.0);
  EXPECT_EQ(runs[1].report_label, gbx::record_label(5));
  EXPECT_EQ(runs[1].cpu_accumulated_time, 8.0);
  EXPECT_EQ(runs[2].cpu_accumulated_time, 7.0);
  for (const auto& run : runs) EXPECT_TRUE(run.counters.empty());
}

TEST(PatchRuns, ErrorRunGetsTheProblemButNoCountersOrCpuTime) {
  gbx::SampleChannel channel;
  gbx::detail::RunRecord failed = record("copy/scalar", 1048576, 0.5);
  failed.error = "skipped: no device";
  failed.skipped = true;
  const auto id = channel.publish(failed);
  GbRun run = iteration_run(gbx::record_label(id), 9.0);
  gbx_test::set_run_error(run, failed.error);
  std::vector<GbRun> runs = {run};
  gbx::patch_runs(runs, channel);
  EXPECT_EQ(runs[0].report_label, "copy/scalar/problem/1048576");
  EXPECT_EQ(runs[0].cpu_accumulated_time, 9.0);
  EXPECT_TRUE(runs[0].counters.empty());
}

TEST(PatchRuns, LeavesAggregatesToTheReporter) {
  gbx::SampleChannel channel;
  const auto id = channel.publish(record("b", 1, 1.0));
  std::vector<GbRun> runs = {aggregate_run(gbx::record_label(id), "mean", 1)};
  gbx::patch_runs(runs, channel);
  EXPECT_EQ(runs[0].report_label, gbx::record_label(id));
  EXPECT_EQ(runs[0].cpu_accumulated_time, -1.0);
}

TEST(PatchRepetition, ReplacesLabelCpuTimeAndAddsCounters) {
  GbRun run = iteration_run("anything", 5.0, 3);
  gbx::patch_repetition(run, record("b", 1, 0.25, 6, 2));
  EXPECT_EQ(run.report_label, "b/problem/1");
  EXPECT_EQ(run.cpu_accumulated_time, 0.75);
  EXPECT_EQ(run.counters.at("samples").value, 6.0);
  EXPECT_EQ(run.counters.at("batch").value, 2.0);
}

// Three repetitions whose CPU times per run are 1, 2 and 6 seconds.
std::vector<gbx::detail::RunRecord> three_repetitions() {
  return {record("b", 1, 1.0), record("b", 1, 2.0), record("b", 1, 6.0)};
}

TEST(PatchAggregate, RecomputesEachStatisticFromTheRepetitions) {
  GbRun mean_run = aggregate_run("", "mean", 3);
  GbRun largest_run = aggregate_run("", "largest", 3);
  GbRun share_run = aggregate_run("", "share", 3);
  for (GbRun* run : {&mean_run, &largest_run, &share_run}) gbx::patch_aggregate(*run, three_repetitions());
  // mean 3 and largest 6, each times the 3 "iterations" Google Benchmark divides an aggregate's
  // accumulated time by; a percentage statistic is kept as it is.
  EXPECT_DOUBLE_EQ(mean_run.cpu_accumulated_time, 9.0);
  EXPECT_DOUBLE_EQ(largest_run.cpu_accumulated_time, 18.0);
  EXPECT_DOUBLE_EQ(share_run.cpu_accumulated_time, 6.0);
  EXPECT_EQ(mean_run.report_label, "b/problem/1");  // Google Benchmark left it empty
  EXPECT_TRUE(mean_run.counters.empty());
}

TEST(PatchAggregate, SkipsFailedRepetitions) {
  std::vector<gbx::detail::RunRecord> repetitions = three_repetitions();
  repetitions[2].error = "run exploded";  // its 6 s must not count
  GbRun run = aggregate_run("", "mean", 3);
  gbx::patch_aggregate(run, repetitions);
  EXPECT_DOUBLE_EQ(run.cpu_accumulated_time, 1.5 * 3);
}

TEST(PatchAggregate, UnknownStatisticLeavesTheTime) {
  GbRun unknown = aggregate_run("", "no_such_statistic", 3);
  gbx::patch_aggregate(unknown, three_repetitions());
  EXPECT_EQ(unknown.cpu_accumulated_time, -1.0);
  EXPECT_EQ(unknown.report_label, "b/problem/1");
  unknown.statistics = nullptr;
  gbx::patch_aggregate(unknown, three_repetitions());
  EXPECT_EQ(unknown.cpu_accumulated_time, -1.0);
}

// From Google Benchmark 1.8 on an aggregate row carries no statistics: its own four are recomputed
// by name. CPU times 1, 2, 6: mean 3, median 2, stddev sqrt((4 + 1 + 9) / 2) = sqrt(7).
TEST(PatchAggregate, WithoutItsStatisticsGoogleBenchmarksOwnAreRecomputedByName) {
  const std::pair<const char*, double> expected[] = {
      {"mean", 3.0 * 3}, {"median", 2.0 * 3}, {"stddev", std::sqrt(7.0) * 3}, {"cv", std::sqrt(7.0) / 3.0}};
  for (const auto& [name, cpu_accumulated] : expected) {
    GbRun run = aggregate_run("", name, 3);
    run.statistics = nullptr;
    if (std::string(name) == "cv") run.aggregate_unit = benchmark::kPercentage;
    gbx::patch_aggregate(run, three_repetitions());
    EXPECT_DOUBLE_EQ(run.cpu_accumulated_time, cpu_accumulated) << name;
  }
}

TEST(PatchAggregate, NoRepetitionsLeavesTheRunAlone) {
  GbRun run = aggregate_run("kept", "mean", 3);
  gbx::patch_aggregate(run, {});
  EXPECT_EQ(run.report_label, "kept");
  EXPECT_EQ(run.cpu_accumulated_time, -1.0);
}

TEST(PatchAggregate, ErrorAggregateKeepsItsTime) {
  GbRun run = aggregate_run("", "mean", 3);
  gbx_test::set_run_error(run, "");
  gbx::patch_aggregate(run, three_repetitions());
  EXPECT_EQ(run.cpu_accumulated_time, -1.0);
}

}  // namespace

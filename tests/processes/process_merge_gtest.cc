// The merge of child processes' reports into one record, the wire format between them, the orders,
// the flags a parent keeps, and the progress line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "processes/process_runner.h"
#include "processes/shard.h"
#include "runner/process_child.h"
#include "writer/process_merge.h"
#include "writer/run_record_wire.h"

namespace gbx {
namespace {

detail::RunRecord record_with(std::vector<double> samples, std::int64_t batch = 1) {
  detail::RunRecord r;
  r.benchmark = "family/variant";
  r.args = {4096};
  r.problem = "family/n=4096";
  r.variant = "variant";
  r.region = "cpu";
  r.flops_per_run = 4096.0;
  r.bytes_per_run = 16384.0;
  r.seed = 7;
  r.measurement.samples = std::move(samples);
  r.measurement.batch = batch;
  r.measurement.cpu_seconds_per_run = 1e-6;
  r.measurement.wall_seconds = 0.5;
  r.measurement.sampling_seconds = 0.25;
  r.measurement.warmup_runs = 2;
  r.stopping.reached = true;
  return r;
}

nlohmann::json iteration_row(double real_time_ns, double cpu_time_ns, std::int64_t repetition = 0,
                             std::int64_t repetitions = 1) {
  return {{"name", "family/variant/n:4096"},
          {"family_index", 0},
          {"per_family_instance_index", 0},
          {"run_name", "family/variant/n:4096"},
          {"run_type", "iteration"},
          {"repetitions", repetitions},
          {"repetition_index", repetition},
          {"threads", 1},
          {"iterations", 1},
          {"real_time", real_time_ns},
          {"cpu_time", cpu_time_ns},
          {"time_unit", "ns"},
          {"samples", 3},
          {"batch", 1},
          {"items_per_second", 1.0},
          {"label", "family/n=4096"}};
}

nlohmann::json aggregate_row(const std::string& aggregate, double value) {
  return {{"name", "family/variant/n:4096_" + aggregate},
          {"family_index", 0},
          {"per_family_instance_index", 0},
          {"run_name", "family/variant/n:4096"},
          {"run_type", "aggregate"},
          {"repetitions", 2},
          {"threads", 1},
          {"aggregate_name", aggregate},
          {"aggregate_unit", "time"},
          {"iterations", 2},
          {"real_time", value},
          {"cpu_time", value},
          {"time_unit", "ns"}};
}

ProcessOutcome outcome(std::int64_t process, std::vector<ProcessRow> rows, std::string failure = "") {
  ProcessOutcome o;
  o.process = process;
  o.pid = 100 + process;
  o.started_utc = "2026-12-01T00:00:0" + std::to_string(process) + "Z";
  o.position = 2 - process;
  o.rows = std::move(rows);
  o.failure = std::move(failure);
  return o;
}

ProcessRunResults results_of(std::vector<ProcessOutcome> outcomes) {
  ProcessRunResults results;
  results.names = {"family/variant/n:4096"};
  results.outcomes = {std::move(outcomes)};
  results.processes = static_cast<std::int64_t>(results.outcomes[0].size());
  results.order_seed = 42;
  return results;
}

TEST(WireFormat, RoundTripKeepsEveryField) {
  detail::RunRecord r = record_with({1e-6, 2e-6, 1.5e-6}, 4);
  r.accuracy = Accuracy{1e-7, 2e-7, 1, "float64 CPU", 1e-5, false, "read before written"};
  r.memory.device_bytes = 1024;
  r.memory.host_peak_bytes_unavailable = "not tracked";
  r.measurement.timer = detail::TimerKind::host_wall;
  r.measurement.cache = detail::CacheMode::cold;
  r.measurement.below_resolution = true;
  r.stopping.rule = "target_rel_ci";
  r.stopping.target_rel_ci = 0.01;
  r.stopping.achieved_rel_ci = 0.02;
  r.stopping.min_time_seconds = 0.125;
  r.error = "";
  const nlohmann::json once = run_record_json(r);
  const detail::RunRecord back = run_record_from_json(once);
  EXPECT_EQ(run_record_json(back), once);
  EXPECT_EQ(back.measurement.samples, r.measurement.samples);
  EXPECT_EQ(back.measurement.timer, detail::TimerKind::host_wall);
  EXPECT_EQ(back.measurement.cache, detail::CacheMode::cold);
  EXPECT_EQ(back.measurement.sampling_seconds, 0.25);
  EXPECT_EQ(back.stopping.min_time_seconds, 0.125);
  ASSERT_TRUE(back.accuracy.has_value());
  EXPECT_FALSE(back.accuracy->passed);
  EXPECT_EQ(back.accuracy->note, "read before written");
  EXPECT_EQ(back.memory.device_bytes, std::optional<std::int64_t>(1024));
  EXPECT_FALSE(back.memory.device_peak_bytes.has_value());
}

TEST(Merge, RealTimeIsTheMedianOfTheProcessMediansAndSamplesKeepProcessOrder) {
  const auto results = results_of({outcome(0, {{iteration_row(5.0, 50.0), record_with({5e-9, 5e-9, 6e-9})}}),
                                   outcome(1, {{iteration_row(1.0, 10.0), record_with({1e-9, 1e-9, 2e-9}, 8)}}),
                                   outcome(2, {{iteration_row(2.0, 20.0), record_with({2e-9, 3e-9, 2e-9}, 8)}})});
  const auto rows = merge_process_rows(results, {});
  ASSERT_EQ(rows.size(), 1u);
  const auto& b = rows[0].benchmark;
  EXPECT_DOUBLE_EQ(b["real_time"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(b["cpu_time"].get<double>(), 20.0);
  EXPECT_EQ(b["samples"].get<int>(), 9);
  EXPECT_EQ(b["batch"].get<int>(), 8);  // the median of 1, 8, 8
  EXPECT_DOUBLE_EQ(b["items_per_second"].get<double>(), 4096.0 / 2e-9);
  ASSERT_TRUE(rows[0].record.has_value());
  EXPECT_EQ(rows[0].record->measurement.samples,
            (std::vector<double>{5e-9, 5e-9, 6e-9, 1e-9, 1e-9, 2e-9, 2e-9, 3e-9, 2e-9}));
  EXPECT_EQ(rows[0].record->measurement.warmup_runs, 6);
  EXPECT_DOUBLE_EQ(rows[0].record->measurement.wall_seconds, 1.5);
  EXPECT_DOUBLE_EQ(rows[0].record->measurement.sampling_seconds, 0.75);  // each process's span, summed
  ASSERT_TRUE(rows[0].analysis && rows[0].analysis->summary);
  EXPECT_EQ(rows[0].analysis->summary->count, 9);
  EXPECT_DOUBLE_EQ(rows[0].analysis->summary->median, 2e-9);  // pooled, unlike real_time
  const auto& groups = rows[0].process_samples;
  ASSERT_EQ(groups.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(groups[i]["process"].get<int>(), i);
    EXPECT_EQ(groups[i]["pid"].get<int>(), 100 + i);
    EXPECT_EQ(groups[i]["position"].get<int>(), 2 - i);
    EXPECT_EQ(groups[i]["count"].get<int>(), 3);
  }
}

TEST(Merge, TheHierarchicalEstimateTakesTheProcessesAsItsUnit) {
  // Process medians 5, 1 and 2 ns: the estimate is their geometric mean, over 3 processes.
  const auto results = results_of({outcome(0, {{iteration_row(5.0, 50.0), record_with({5e-9, 5e-9, 6e-9})}}),
                                   outcome(1, {{iteration_row(1.0, 10.0), record_with({1e-9, 1e-9, 2e-9})}}),
                                   outcome(2, {{iteration_row(2.0, 20.0), record_with({2e-9, 3e-9, 2e-9})}})});
  const auto rows = merge_process_rows(results, {});
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].analysis && rows[0].analysis->hierarchical);
  const HierarchicalEstimate& h = *rows[0].analysis->hierarchical;
  EXPECT_FALSE(h.single_process);
  EXPECT_EQ(h.processes, 3u);
  EXPECT_EQ(h.samples_per_process, (std::vector<std::size_t>{3, 3, 3}));
  EXPECT_NEAR(h.median, std::cbrt(5e-9 * 1e-9 * 2e-9), 1e-15);
  EXPECT_LT(h.lower, h.median);
  EXPECT_GT(h.upper, h.median);
  EXPECT_TRUE(h.between_process_cv.has_value());
  const nlohmann::json stats = stats_json(*rows[0].analysis);
  EXPECT_EQ(stats["hierarchical"]["processes"], 3);
  EXPECT_EQ(stats["hierarchical"]["single_process"], false);
}

TEST(Merge, OneProcessIsMarkedSingleProcess) {
  const auto rows =
      merge_process_rows(results_of({outcome(0, {{iteration_row(2.0, 20.0), record_with({2e-9, 3e-9, 2e-9})}})}), {});
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].analysis && rows[0].analysis->hierarchical);
  EXPECT_TRUE(rows[0].analysis->hierarchical->single_process);
  EXPECT_FALSE(rows[0].analysis->hierarchical->between_process_cv.has_value());
  EXPECT_FALSE(rows[0].analysis->hierarchical->plan.has_value());
}

TEST(Merge, ABenchmarkAProcessDiedRunningIsFailedWithTheCause) {
  const auto results = results_of({outcome(0, {{iteration_row(5.0, 50.0), record_with({5e-9})}}),
                                   outcome(1, {}, "process 1 (pid 101) died of SIGSEGV while running this benchmark")});
  const auto rows = merge_process_rows(results, {});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].benchmark["error_occurred"].get<bool>());
  EXPECT_NE(rows[0].benchmark["error_message"].get<std::string>().find("SIGSEGV"), std::string::npos);
  EXPECT_FALSE(rows[0].benchmark.contains("samples"));
  EXPECT_TRUE(rows[0].process_samples.is_null());
  ASSERT_TRUE(rows[0].record.has_value());
  EXPECT_EQ(rows[0].record->problem, "family/n=4096");
  EXPECT_TRUE(any_failed(rows));
}

TEST(Merge, AFailureWithoutAnyHealthyProcessStillGivesAGoogleBenchmarkRow) {
  const auto results = results_of({outcome(0, {}, "still running after 3 s (--gbx_benchmark_timeout)")});
  const auto rows = merge_process_rows(results, {});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].benchmark["name"], "family/variant/n:4096");
  EXPECT_EQ(rows[0].benchmark["run_type"], "iteration");
  EXPECT_FALSE(rows[0].record.has_value());
  EXPECT_TRUE(any_failed(rows));
}

TEST(Merge, AggregatesAreRecomputedOverTheMergedRepetitions) {
  const auto process = [](std::int64_t p, double r0, double r1) {
    return outcome(p, {{iteration_row(r0, r0, 0, 2), record_with({r0 * 1e-9})},
                       {iteration_row(r1, r1, 1, 2), record_with({r1 * 1e-9})},
                       {aggregate_row("mean", 999.0), std::nullopt},
                       {aggregate_row("stddev", 999.0), std::nullopt}});
  };
  // Repetition 0: medians of {1, 3} = 2; repetition 1: medians of {5, 7} = 6.
  const auto rows = merge_process_rows(results_of({process(0, 1.0, 5.0), process(1, 3.0, 7.0)}), {});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_DOUBLE_EQ(rows[0].benchmark["real_time"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(rows[1].benchmark["real_time"].get<double>(), 6.0);
  EXPECT_DOUBLE_EQ(rows[2].benchmark["real_time"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(rows[3].benchmark["real_time"].get<double>(), std::sqrt(8.0));  // sd of {2, 6}
  EXPECT_FALSE(any_failed(rows));
}

TEST(Merge, TheRecordCarriesProcessesAndProcessSamples) {
  auto results = results_of({outcome(0, {{iteration_row(5.0, 50.0), record_with({5e-9, 4e-9})}}),
                             outcome(1, {{iteration_row(1.0, 10.0), record_with({1e-9})}})});
  ProcessLaunch launch;
  launch.process = 1;
  launch.pid = 101;
  launch.signal = "SIGABRT";
  launch.order = {"family/variant/n:4096"};
  results.launches.push_back(launch);
  const auto rows = merge_process_rows(results, {});
  RecordHeader header{"run", "2026-12-01T00:00:00Z", {"bench"}, detail::Protocol{}};
  header.protocol.processes = 2;
  const auto record = build_process_record(results, rows, nlohmann::json::object(), header);
  EXPECT_EQ(record["gbx"]["protocol"]["processes"], 2);
  const auto& processes = record["gbx"]["processes"];
  EXPECT_EQ(processes["count"], 2);
  EXPECT_EQ(processes["order_seed"], 42);
  EXPECT_EQ(processes["runs"][0]["exit"]["signal"], "SIGABRT");
  EXPECT_TRUE(processes["runs"][0]["exit"]["code"].is_null());
  const auto& entry = record["benchmarks"][0]["gbx"];
  EXPECT_EQ(entry["samples"].size(), 3u);
  EXPECT_EQ(entry["process_samples"].size(), 2u);
  EXPECT_EQ(entry["stats"]["count"], 3);
}

TEST(Orders, EachProcessGetsItsOwnReproduciblePermutation) {
  const auto a = process_order(20, 7, 0);
  std::vector<std::size_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::size_t> identity(20);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(sorted, identity);
  EXPECT_EQ(process_order(20, 7, 0), a);
  EXPECT_NE(process_order(20, 7, 1), a);
  EXPECT_NE(process_order(20, 8, 0), a);
  EXPECT_TRUE(process_order(0, 7, 0).empty());
}

TEST(Children, TheParentKeepsItsOwnFlags) {
  const std::vector<std::string> args = {
      "--benchmark_filter=x", "--gbx_processes=3",        "--benchmark_out=r.json", "--benchmark_out_format=csv",
      "--gbx_min_samples=5",  "--gbx_out_dir=d",          "--gbx_progress=on",      "--benchmark_format=json",
      "--gbx_order_seed=1",   "--benchmark_repetitions=2"};
  EXPECT_EQ(child_arguments(args),
            (std::vector<std::string>{"--benchmark_filter=x", "--gbx_min_samples=5", "--benchmark_repetitions=2"}));
  EXPECT_EQ(exact_filter("a.b(c)/n:4*"), "^a\\.b\\(c\\)/n:4\\*$");
  EXPECT_EQ(signal_name(SIGSEGV), "SIGSEGV");
}

TEST(Flags, TheProcessFlagsAreReadAndBadValuesRefused) {
  const detail::CommandLine line =
      detail::parse_command_line({"--gbx_processes=4", "--gbx_order_seed=9", "--gbx_progress=off",
                                  "--gbx_benchmark_timeout=2.5", "--benchmark_filter=x"});
  EXPECT_EQ(line.protocol.processes, 4);
  EXPECT_TRUE(line.processes.isolated);
  EXPECT_EQ(line.processes.order_seed, std::optional<std::uint64_t>(9));
  EXPECT_EQ(line.processes.progress, "off");
  EXPECT_DOUBLE_EQ(line.processes.benchmark_timeout_seconds, 2.5);
  EXPECT_EQ(line.passthrough, std::vector<std::string>{"--benchmark_filter=x"});
  const detail::CommandLine plain = detail::parse_command_line({});
  EXPECT_EQ(plain.protocol.processes, 1);
  EXPECT_FALSE(plain.processes.isolated);
  EXPECT_EQ(plain.processes.progress, "auto");
  // A timeout needs a parent to enforce it: one child process.
  const detail::CommandLine timeout = detail::parse_command_line({"--gbx_benchmark_timeout=1"});
  EXPECT_TRUE(timeout.processes.isolated);
  EXPECT_EQ(timeout.protocol.processes, 1);
  for (const std::string bad : {"--gbx_processes=0", "--gbx_processes=two", "--gbx_order_seed=-1",
                                "--gbx_benchmark_timeout=0", "--gbx_progress=sometimes"}) {
    try {
      detail::parse_command_line({bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const detail::FlagError& error) {
      const std::string flag = bad.substr(2, bad.find('=') - 2);
      EXPECT_NE(std::string(error.what()).find(flag), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace gbx

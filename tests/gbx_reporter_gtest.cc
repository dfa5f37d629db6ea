// GbxReporter on hand-made Google Benchmark reports, in the orders Google Benchmark sends them:
// which record each row gets, how aggregates find their repetitions, and what counts as failed.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "model/sample_channel.h"
#include "reporters/gbx_reporter.h"
#include "tests/support/reporter_run.h"

namespace {

using gbx_test::GbRun;

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

const std::vector<gbx_test::RunStatistic>& statistics() {
  static const std::vector<gbx_test::RunStatistic> stats = {{"mean", mean}};
  return stats;
}

// A run as Google Benchmark would report it for benchmark `family` with argument string `args`.
GbRun base_run(const std::string& family, const std::string& args) {
  GbRun run;
  run.run_name.function_name = family;
  run.run_name.args = args;
  run.family_index = 0;
  run.per_family_instance_index = 0;
  run.repetitions = 3;
  run.repetition_index = 0;
  run.iterations = 1;
  run.real_accumulated_time = 1.0;
  run.cpu_accumulated_time = 1000.0;  // Google Benchmark's own, to be replaced
  run.statistics = &statistics();
  return run;
}

GbRun repetition(const std::string& family, const std::string& args, std::int64_t id, std::int64_t index) {
  GbRun run = base_run(family, args);
  run.run_type = GbRun::RT_Iteration;
  run.repetition_index = index;
  run.report_label = gbx::record_label(id);
  return run;
}

GbRun aggregate(const std::string& family, const std::string& args) {
  GbRun run = base_run(family, args);
  run.run_type = GbRun::RT_Aggregate;
  run.aggregate_name = "mean";
  run.repetition_index = GbRun::no_repetition_index;
  run.iterations = 3;     // an aggregate's iterations are its repetitions
  run.report_label = "";  // Google Benchmark empties it: the repetitions' labels differ
  return run;
}

gbx::detail::RunRecord record(const std::string& family, std::int64_t arg, double cpu_per_run) {
  gbx::detail::RunRecord r;
  r.benchmark = family;
  r.args = {arg};
  r.problem = family + "/n=" + std::to_string(arg);
  r.measurement.cpu_seconds_per_run = cpu_per_run;
  r.measurement.samples = {1e-6, 2e-6};
  return r;
}

// Keeps the (patched) runs GbxReporter forwards to its display.
class Recorder : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override { seen.insert(seen.end(), runs.begin(), runs.end()); }
  std::vector<Run> seen;
};

TEST(GbxReporter, RepetitionsThenAggregatesAsGoogleBenchmarkSendsThem) {
  gbx::SampleChannel channel;
  const auto a0 = channel.publish(record("b", 1, 1.0));
  const auto a1 = channel.publish(record("b", 1, 2.0));
  const auto a2 = channel.publish(record("b", 1, 6.0));
  Recorder display;
  gbx::GbxReporter reporter(&display, nullptr, channel);
  reporter.ReportRuns({repetition("b", "1", a0, 0), repetition("b", "1", a1, 1), repetition("b", "1", a2, 2)});
  reporter.ReportRuns({aggregate("b", "1")});

  const auto& entries = reporter.entries();
  ASSERT_EQ(entries.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(entries[i].has_value()) << i;
    EXPECT_EQ(entries[i]->id, static_cast<std::int64_t>(i));
  }
  ASSERT_TRUE(entries[3].has_value());
  EXPECT_EQ(entries[3]->id, a0);  // an aggregate row stands for the first repetition's problem

  reporter.Finalize();  // the printers get every run at the end, in one call
  ASSERT_EQ(display.seen.size(), 4u);
  EXPECT_EQ(display.seen[1].cpu_accumulated_time, 2.0);
  EXPECT_EQ(display.seen[1].report_label, "b/n=1");
  // mean(1, 2, 6) = 3 per run, times the aggregate's 3 iterations.
  EXPECT_DOUBLE_EQ(display.seen[3].cpu_accumulated_time, 9.0);
  EXPECT_EQ(display.seen[3].report_label, "b/n=1");
  EXPECT_FALSE(reporter.any_failed());
}

TEST(GbxReporter, InterleavedInstancesFindTheirOwnRepetitions) {
  // --benchmark_enable_random_interleaving: the repetitions of two instances of one family run
  // alternately, and each instance is reported once its last repetition is done.
  gbx::SampleChannel channel;
  const auto a0 = channel.publish(record("b", 1, 1.0));
  const auto b0 = channel.publish(record("b", 2, 10.0));
  const auto a1 = channel.publish(record("b", 1, 2.0));
  const auto b1 = channel.publish(record("b", 2, 20.0));
  const auto a2 = channel.publish(record("b", 1, 6.0));
  Recorder display;
  gbx::GbxReporter reporter(&display, nullptr, channel);
  reporter.ReportRuns({repetition("b", "1", a0, 0), repetition("b", "1", a1, 1), repetition("b", "1", a2, 2)});
  reporter.ReportRuns({aggregate("b", "1")});
  const auto b2 = channel.publish(record("b", 2, 60.0));
  reporter.ReportRuns({repetition("b", "2", b0, 0), repetition("b", "2", b1, 1), repetition("b", "2", b2, 2)});
  reporter.ReportRuns({aggregate("b", "2")});

  reporter.Finalize();  // the printers get every run at the end, in one call
  ASSERT_EQ(display.seen.size(), 8u);
  EXPECT_DOUBLE_EQ(display.seen[3].cpu_accumulated_time, 9.0);   // mean(1, 2, 6) x 3
  EXPECT_DOUBLE_EQ(display.seen[7].cpu_accumulated_time, 90.0);  // mean(10, 20, 60) x 3
  ASSERT_TRUE(reporter.entries()[7].has_value());
  EXPECT_EQ(reporter.entries()[7]->args, std::vector<std::int64_t>{2});
  EXPECT_EQ(display.seen[7].report_label, "b/n=2");
}

TEST(GbxReporter, AggregatesOnlyHidesRepetitionsFromTheDisplayButNotFromTheRecord) {
  gbx::SampleChannel channel;
  const auto a0 = channel.publish(record("b", 1, 1.0));
  const auto a1 = channel.publish(record("b", 1, 2.0));
  const auto a2 = channel.publish(record("b", 1, 6.0));
  Recorder display;
  gbx::GbxReporter reporter(&display, nullptr, channel);
  reporter.set_aggregates_only(true, false);
  reporter.ReportRuns({repetition("b", "1", a0, 0), repetition("b", "1", a1, 1), repetition("b", "1", a2, 2)});
  reporter.ReportRuns({aggregate("b", "1")});

  reporter.Finalize();  // the printers get every run at the end, in one call
  ASSERT_EQ(display.seen.size(), 1u);
  EXPECT_EQ(display.seen[0].run_type, GbRun::RT_Aggregate);
  EXPECT_DOUBLE_EQ(display.seen[0].cpu_accumulated_time, 9.0);
  ASSERT_EQ(reporter.entries().size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(reporter.entries()[i].has_value()) << i;
  EXPECT_NE(reporter.google_benchmark_json().find("\"repetition_index\": 2"), std::string::npos)
      << "the JSON behind the record keeps every repetition";
}

TEST(GbxReporter, AggregatesOfUnreportedRepetitionsTakeTheirInstancesLatestRecords) {
  // A benchmark's own ReportAggregatesOnly(): the repetitions reach no reporter. The records of
  // both instances interleave, and an earlier call of instance 1 (Google Benchmark's warm-up) is
  // not one of its repetitions.
  gbx::SampleChannel channel;
  channel.publish(record("b", 1, 500.0));
  channel.publish(record("b", 1, 1.0));
  channel.publish(record("b", 2, 10.0));
  channel.publish(record("b", 1, 2.0));
  channel.publish(record("b", 2, 20.0));
  channel.publish(record("b", 1, 6.0));
  Recorder display;
  gbx::GbxReporter reporter(&display, nullptr, channel);
  reporter.ReportRuns({aggregate("b", "n:1")});
  channel.publish(record("b", 2, 60.0));
  reporter.ReportRuns({aggregate("b", "n:2")});

  reporter.Finalize();  // the printers get every run at the end, in one call
  ASSERT_EQ(display.seen.size(), 2u);
  EXPECT_DOUBLE_EQ(display.seen[0].cpu_accumulated_time, 9.0);   // mean(1, 2, 6) x 3
  EXPECT_DOUBLE_EQ(display.seen[1].cpu_accumulated_time, 90.0);  // mean(10, 20, 60) x 3
  ASSERT_TRUE(reporter.entries()[1].has_value());
  EXPECT_EQ(reporter.entries()[1]->args, std::vector<std::int64_t>{2});
  EXPECT_EQ(display.seen[1].report_label, "b/n=2");
}

TEST(ParseRunArgs, NamedPlainAndForeign) {
  EXPECT_EQ(gbx::parse_run_args("n:4096/8"), (std::vector<std::int64_t>{4096, 8}));
  EXPECT_EQ(gbx::parse_run_args("4096"), (std::vector<std::int64_t>{4096}));
  EXPECT_EQ(gbx::parse_run_args("m:-3"), (std::vector<std::int64_t>{-3}));
  EXPECT_EQ(gbx::parse_run_args(""), (std::vector<std::int64_t>{}));
  EXPECT_FALSE(gbx::parse_run_args("threads:x").has_value());
}

TEST(GbxReporter, RowsWithoutARecordAreForwardedUntouched) {
  gbx::SampleChannel channel;
  Recorder display;
  gbx::GbxReporter reporter(&display, nullptr, channel);
  GbRun plain = base_run("plain_loop", "");
  plain.report_label = "my label";
  reporter.ReportRuns({plain, repetition("b", "1", 99, 0)});  // 99: not in the channel
  ASSERT_EQ(reporter.entries().size(), 2u);
  EXPECT_FALSE(reporter.entries()[0].has_value());
  EXPECT_FALSE(reporter.entries()[1].has_value());
  reporter.Finalize();  // the printers get every run at the end, in one call
  ASSERT_EQ(display.seen.size(), 2u);
  EXPECT_EQ(display.seen[0].report_label, "my label");
  EXPECT_EQ(display.seen[0].cpu_accumulated_time, 1000.0);
  EXPECT_TRUE(display.seen[0].counters.empty());
}

TEST(GbxReporter, AFailedRepetitionIsAFailureAndASkipIsNot) {
  gbx::SampleChannel channel;
  gbx::detail::RunRecord skipped = record("copy", 1, 0.0);
  skipped.skipped = true;
  skipped.error = "skipped: no device";
  const auto skipped_id = channel.publish(skipped);
  gbx::detail::RunRecord failed = record("b", 1, 0.0);
  failed.error = "run exploded";
  const auto failed_id = channel.publish(failed);

  {
    gbx::GbxReporter reporter(nullptr, nullptr, channel);
    GbRun run = repetition("copy", "1", skipped_id, 0);
    gbx_test::set_run_error(run, skipped.error);
    reporter.ReportRuns({run});
    EXPECT_FALSE(reporter.any_failed());
  }
  {
    gbx::GbxReporter reporter(nullptr, nullptr, channel);
    GbRun run = repetition("b", "1", failed_id, 0);
    gbx_test::set_run_error(run, failed.error);
    reporter.ReportRuns({run});
    EXPECT_TRUE(reporter.any_failed());
  }
  {
    // An error in a plain Google Benchmark row, with no gbx record at all, is a failure too.
    gbx::GbxReporter reporter(nullptr, nullptr, channel);
    GbRun run = base_run("plain", "");
    gbx_test::set_run_error(run, "oops");
    reporter.ReportRuns({run});
    EXPECT_TRUE(reporter.any_failed());
  }
}

}  // namespace

// Reporter output checked line by line against regular expressions, in the style of Google
// Benchmark's output tests: each expected pattern must match a later line than the one before.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "reporters/console_table.h"
#include "tests/support/regex.h"
#include "tests/support/reporter_run.h"
#include "writer/json_record.h"

namespace {

using BenchmarkRun = benchmark::BenchmarkReporter::Run;

// Returns the first pattern that no later line matches, or "" when all matched in order.
std::string first_unmatched(const std::string& output, const std::vector<std::string>& patterns) {
  std::istringstream lines(output);
  std::string line;
  std::size_t next = 0;
  while (next < patterns.size() && std::getline(lines, line)) {
    if (gbx_test::regex_search(line, patterns[next])) ++next;
  }
  return next == patterns.size() ? "" : patterns[next];
}

gbx::detail::RunRecord record_with(std::vector<double> samples) {
  gbx::detail::RunRecord record;
  record.id = 0;
  record.benchmark = "reduce/naive";
  record.problem = "reduce/n=4096";
  record.variant = "naive";
  record.region = "cpu";
  record.measurement.samples = std::move(samples);
  record.measurement.timer = gbx::detail::TimerKind::simulated;
  record.stopping.reached = true;
  return record;
}

BenchmarkRun run_named(const std::string& family, const std::string& args) {
  BenchmarkRun run;
  run.run_name.function_name = family;
  run.run_name.args = args;
  run.run_name.iterations = "iterations:1";
  run.run_name.time_type = "manual_time";
  run.iterations = 1;
  run.repetitions = 1;
  run.repetition_index = 0;
  return run;
}

std::vector<double> around(double center, std::size_t n) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < n; ++i) samples.push_back(center * (1.0 + 0.001 * static_cast<double>(i % 7)));
  return samples;
}

TEST(FormatDuration, PicksAReadableUnitWithThreeSignificantDigits) {
  EXPECT_EQ(gbx::format_duration(812e-9), "812 ns");
  EXPECT_EQ(gbx::format_duration(2.314e-6), "2.31 us");
  EXPECT_EQ(gbx::format_duration(0.0402), "40.2 ms");
  EXPECT_EQ(gbx::format_duration(1.5), "1.50 s");
  EXPECT_EQ(gbx::format_duration(std::numeric_limits<double>::quiet_NaN()), "-");
}

TEST(ConsoleTable, RowsHeaderAndProtocolLine) {
  std::ostringstream out;
  gbx::detail::Protocol protocol;
  gbx::ConsoleTable table(out, protocol, "11111111-2222-4333-8444-555555555555");
  benchmark::BenchmarkReporter::Context context;
  context.name_field_width = 60;  // Google Benchmark sets it from the longest name
  table.print_header(context);

  const gbx::detail::RunRecord ok = record_with(around(2e-6, 30));
  table.print_row(run_named("reduce/naive", "n:4096"), ok, gbx::analyze_run(ok));

  gbx::detail::RunRecord skipped = record_with({});
  skipped.skipped = true;
  skipped.skip_code = "no_cuda_device";
  skipped.problem = "copy/n=1024";
  skipped.variant = "scalar";
  skipped.error = "skipped: no CUDA device (the CUDA runtime said cudaErrorNoDevice)";
  BenchmarkRun skipped_run = run_named("copy/scalar", "n:1024");
  gbx_test::set_run_error(skipped_run, skipped.error);
  table.print_row(skipped_run, skipped, std::nullopt);

  BenchmarkRun failed_run = run_named("copy/vectorised", "n:1024");
  gbx_test::set_run_error(failed_run, "kernel.cu:12: launch failed");
  table.print_row(failed_run, record_with({}), std::nullopt);

  gbx::detail::RunRecord short_of_target = record_with(around(5e-3, 12));
  short_of_target.stopping = {"target_rel_ci", 0.001, false, 0.004};
  short_of_target.measurement.time_bound_reached = true;
  table.print_row(run_named("reduce/kahan", "n:16777216"), short_of_target, gbx::analyze_run(short_of_target));
  table.print_footer();

  const std::string missing = first_unmatched(
      out.str(),
      {
          R"(^gbx run 11111111-2222-4333-8444-555555555555 on [0-9]+ CPUs)",
          R"(^-+$)",
          R"(^Benchmark +Median +95% CI +CV +n +p99 +Flags$)",
          R"(^reduce/naive/n:4096 +2\.0[0-9] us +\[2\.0[0-9], 2\.0[0-9]\] us +0\.[0-9]+% +30 +2\.01 us)",
          R"(^copy/vectorised/n:1024 +FAILED: kernel\.cu:12: launch failed$)",
          R"(^reduce/kahan/n:16777216 +5\.0[0-9] ms .* 12 .*stopped at max_time after 12 samples, before the median's CI reached \+/-0\.1%)",
          R"(^1 CUDA benchmark not run: no CUDA device \(the CUDA runtime said cudaErrorNoDevice\); --gbx_list_not_run lists them$)",
          R"(^protocol: 10 warm-up runs discarded, 30 samples, at most 10 s per benchmark, cache hot)",
      });
  EXPECT_EQ(missing, "") << out.str();
  EXPECT_EQ(out.str().find("iterations:1"), std::string::npos) << "the constant suffix is dropped on the console";
  EXPECT_EQ(out.str().find("copy/scalar"), std::string::npos) << "a benchmark that could not run gets no row";
}

TEST(ConsoleTable, ProtocolLineNamesAdaptiveStoppingAndColdCache) {
  std::ostringstream out;
  gbx::detail::Protocol protocol;
  protocol.cache = gbx::detail::CacheMode::cold;
  protocol.target_rel_ci = 0.01;
  protocol.max_samples = 500;
  gbx::ConsoleTable table(out, protocol, "run");
  table.print_footer();
  EXPECT_EQ(first_unmatched(
                out.str(),
                {R"(30 samples or more until the median's 95% CI is within \+/-1% \(at most 500\).*, cache cold,)"}),
            "")
      << out.str();
}

TEST(ConsoleTable, ProtocolLineNamesALeastSpan) {
  std::ostringstream alone;
  gbx::detail::Protocol protocol;
  protocol.min_time_seconds = 0.5;
  gbx::ConsoleTable(alone, protocol, "run").print_footer();
  EXPECT_EQ(
      first_unmatched(alone.str(), {R"(30 samples or more until they span 0.5 s \(at most 10000\), at most 10 s)"}), "")
      << alone.str();
  std::ostringstream both;
  protocol.target_rel_ci = 0.01;
  gbx::ConsoleTable(both, protocol, "run").print_footer();
  EXPECT_EQ(first_unmatched(both.str(), {R"(within \+/-1% and they span 0.5 s \(at most 10000\), at most 10 s)"}), "")
      << both.str();
}

TEST(JsonRecord, EntriesCarryStatsOutliersAndFlagsInKeyOrder) {
  const std::string google_benchmark = R"({
    "context": {"date": "d", "host_name": "h", "executable": "e", "num_cpus": 2, "mhz_per_cpu": 2000,
                "cpu_scaling_enabled": false, "caches": [], "load_avg": [0.5], "library_build_type": "release"},
    "benchmarks": [{"name": "reduce/naive/n:4096/iterations:1/manual_time", "family_index": 0,
                    "per_family_instance_index": 0, "run_name": "reduce/naive/n:4096/iterations:1/manual_time",
                    "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1,
                    "iterations": 1, "real_time": 2.0, "cpu_time": 2.1, "time_unit": "us", "samples": 30}]})";
  gbx::RecordHeader header{"11111111-2222-4333-8444-555555555555", "2026-11-30T00:00:00Z", {"bench"}, {}};
  const auto record = gbx::build_record(google_benchmark, {record_with(around(2e-6, 30))}, header);
  const std::string missing =
      first_unmatched(record.dump(2), {
                                          R"(^  "benchmarks": \[$)",
                                          R"(^      "cpu_time": 2\.1,$)",
                                          R"(^      "gbx": \{$)",
                                          R"(^        "flags": \[)",
                                          R"(^        "outliers": \{$)",
                                          R"(^          "tukey": \{$)",
                                          R"(^        "problem": "reduce/n=4096",$)",
                                          R"(^        "samples": \[$)",
                                          R"(^        "stats": \{$)",
                                          R"(^          "count": 30,$)",
                                          R"(^          "median_ci": \{$)",
                                          R"(^            "method": "bootstrap_bca",$)",
                                          R"(^          "p99_ci": \{$)",
                                          R"(^      "name": "reduce/naive/n:4096/iterations:1/manual_time",$)",
                                          R"(^      "real_time": 2\.0,$)",
                                          R"(^      "run_type": "iteration",$)",
                                          R"(^      "time_unit": "us"$)",
                                          R"(^  "gbx": \{$)",
                                          R"(^    "run_id": "11111111-2222-4333-8444-555555555555",$)",
                                          R"(^    "schema_version": 1$)",
                                      });
  EXPECT_EQ(missing, "") << record.dump(2);
}

}  // namespace

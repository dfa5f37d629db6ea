// The Markdown report against regex cases, line by line: one run, two (the comparison), three (the
// trend), incompatible records, plain Google Benchmark JSON, and names that Markdown would misread.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "report/markdown_report.h"
#include "report/report_model.h"
#include "tests/report/records.h"
#include "tests/support/regex.h"

namespace {

using report_test::Entry;

// How many lines match the pattern as a whole.
int count_lines(const std::string& text, const std::string& pattern) {
  std::istringstream in(text);
  int count = 0;
  for (std::string line; std::getline(in, line);) count += gbx_test::regex_match(line, pattern) ? 1 : 0;
  return count;
}

std::string markdown(const std::vector<std::string>& paths) {
  std::ostringstream out;
  gbx::tools::write_markdown_report(out, gbx::tools::build_report_model(paths));
  return out.str();
}

// One problem with a fast variant, a slow one it dominates and one that fails its accuracy check.
std::string gemm_record(const std::string& file, const std::string& run_id, const std::string& created,
                        double scale = 1.0, const std::string& cache = "hot") {
  Entry fast = report_test::entry("gemm/fast/m:8/iterations:1/manual_time", "gemm/m=8", "fast",
                                  report_test::samples_around(1e-3 * scale));
  Entry slow = report_test::entry("gemm/slow/m:8/iterations:1/manual_time", "gemm/m=8", "slow",
                                  report_test::samples_around(5e-3 * scale));
  Entry broken = report_test::entry("gemm/broken/m:8/iterations:1/manual_time", "gemm/m=8", "broken",
                                    report_test::samples_around(2e-3 * scale));
  broken.error = 0.5;
  broken.passed = false;
  for (Entry* e : {&fast, &slow, &broken}) {
    e->cache = cache;
    e->processes = 4;  // so that a comparison can call a change slower (docs/gating.md)
  }
  return report_test::write(report_test::gbx_record({fast, slow, broken}, run_id, created, cache), file);
}

// A benchmark's table row: its median, the interval and the CV, then the rest.
std::string row_pattern(const std::string& name) {
  return R"(\| )" + name + R"( \| [0-9.]+ [mun]?s \| \[[0-9.]+ [mun]?s, [0-9.]+ [mun]?s\] \| [0-9.]+% \| .* \|)";
}

TEST(MarkdownReport, OneRunHasItsHeaderTableAndParetoConclusion) {
  const std::string md = markdown({gemm_record("one", "run-1", "2026-01-01T00:00:00Z")});
  EXPECT_EQ(count_lines(md, "# gbx report"), 1) << md;
  EXPECT_EQ(count_lines(md, "### Run #1: `" + report_test::test_uuid("run-1") + "`"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(File `.*one\.json` \| created 2026-01-01T00:00:00Z \| checksum: intact)"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(\*\*Environment:\*\* host node-a; CPU Test CPU; .*; commit 0123456789ab.*)"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(\*\*Environment:\*\* .*; virtual machine yes \(/proc/cpuinfo flags: hypervisor\); )"
                            R"(kernel clocksource kvm-clock, transparent huge pages madvise, pti=on tsc=reliable; .*)"),
            1)
      << md;
  EXPECT_EQ(count_lines(md, R"(\*\*Protocol:\*\* warm-up runs 10; samples 20 to 100; )"
                            R"(time bound per benchmark \(s\) 10.0; cache hot; )"
                            R"(target relative CI half-width off; batch target \(timer resolutions\) 100.0)"),
            1)
      << md;
  for (const char* name : {"gemm/fast/m:8", "gemm/slow/m:8", "gemm/broken/m:8"}) {
    EXPECT_EQ(count_lines(md, row_pattern(name)), 1) << name << "\n" << md;
  }
  EXPECT_EQ(count_lines(md, R"(\| gemm/broken/m:8 \| .* \| 5\.00e-01 \*\*FAILED\*\* \| .*)"), 1) << md;
  EXPECT_EQ(count_lines(md, "## Pareto fronts \\(run #1\\)"), 1) << md;
  EXPECT_EQ(count_lines(md, "### gemm/m=8"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(\| fast \| 1\.00 ms \| .* \| \*\*yes\*\* \| [01]\.[0-9]{2} \| - \|)"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(\| broken \| 2\.00 ms \| .* \| failed accuracy \| - \| .*)"), 1) << md;
  EXPECT_EQ(count_lines(md,
                        "On gemm/m=8, fast is on the frontier \\(fastest\\); slow is dominated by fast; broken "
                        "failed its accuracy check and is left out\\."),
            1)
      << md;
  EXPECT_EQ(count_lines(md, "## Comparison.*"), 0);
  EXPECT_EQ(count_lines(md, "## Trend.*"), 0);
  EXPECT_EQ(count_lines(md, R"(\*\*Missing facts\*\*.*)"), 0) << "a gbx record lacks nothing";
}

TEST(MarkdownReport, TwoRunsAddTheComparisonWithVerdictRowsAndSentences) {
  const std::string md = markdown({gemm_record("base", "run-1", "2026-01-01T00:00:00Z"),
                                   gemm_record("cand", "run-2", "2026-01-02T00:00:00Z", 1.5)});
  EXPECT_EQ(count_lines(md, "### Run #[12]: `00000000-0000-4000-8000-[0-9a-f]{12}`"), 2) << md;
  EXPECT_EQ(count_lines(md, "## Comparison: #2 against #1"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(\| Benchmark \| Base \| Candidate \| Ratio \[95% CI\] \| p \(BH\) \| Verdict \|)"), 1);
  for (const char* variant : {"fast", "slow", "broken"}) {
    EXPECT_EQ(
        count_lines(
            md,
            std::string(R"(\| gemm/)") + variant +
                R"(/m:8 \| [0-9.]+ [mu]s \| [0-9.]+ [mu]s \| 1\.[45][0-9]{2} \[[0-9.]+, [0-9.]+\] \| <?[0-9.]+ \| \*\*slower\*\* \|)"),
        1)
        << variant << "\n"
        << md;
    EXPECT_EQ(count_lines(md, std::string("- gemm/") + variant + R"(/m:8: 5[0-9]\.[0-9]% slower, ratio .*)"), 1) << md;
  }
  EXPECT_EQ(count_lines(md, ".*not compatible.*"), 0) << md;
  EXPECT_EQ(count_lines(md, "## Trend.*"), 0);
  EXPECT_EQ(count_lines(md, "## Pareto fronts \\(run #2\\)"), 1) << "the last run's fronts";
}

TEST(MarkdownReport, IncompatibleRecordsAreComparedUnderAWarning) {
  const std::string md = markdown({gemm_record("hot", "run-1", "2026-01-01T00:00:00Z"),
                                   gemm_record("cold", "run-2", "2026-01-02T00:00:00Z", 1.0, "cold")});
  EXPECT_EQ(count_lines(md, R"(> \*\*Warning: the records are not compatible\*\*.*)"), 1) << md;
  EXPECT_EQ(count_lines(md, "> - protocol: cache: base `hot`, candidate `cold`"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(\| gemm/fast/m:8 \| .* \(incompatible\) \|)"), 1) << md;
}

TEST(MarkdownReport, ThreeRunsAddTheTrendInDateOrder) {
  const std::string md = markdown({gemm_record("c", "run-c", "2026-01-03T00:00:00Z", 2.0),
                                   gemm_record("a", "run-a", "2026-01-01T00:00:00Z", 1.0),
                                   gemm_record("b", "run-b", "2026-01-02T00:00:00Z", 1.0)});
  EXPECT_EQ(count_lines(md, "## Trend over 3 runs, by date"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(\| Benchmark \| #2 \(2026-01-01T00:00:00Z\) \| #3 \(2026-01-02T00:00:00Z\) \| )"
                            R"(#1 \(2026-01-03T00:00:00Z\) \| Change \|)"),
            1)
      << md;
  EXPECT_EQ(
      count_lines(md, R"(\| gemm/fast/m:8 \| 1\.00 ms \[.*\] \| 1\.00 ms \[.*\] \| 2\.00 ms \[.*\] \| \+100\.0% \|)"),
      1)
      << md;
  EXPECT_EQ(count_lines(md, R"(- gemm/fast/m:8: 1\.00 ms in #2 \(2026-01-01T00:00:00Z\) to 2\.00 ms in #1 )"
                            R"(\(2026-01-03T00:00:00Z\), \+100\.0%; the intervals do not overlap: .*)"),
            1)
      << md;
  EXPECT_EQ(count_lines(md, "- gemm/[a-z]+/m:8: .*"), 3) << "one sentence per benchmark";
  EXPECT_EQ(count_lines(md, "## Comparison.*"), 0) << "a comparison is for two runs";
}

TEST(MarkdownReport, TheTrendListsItsChangePoints) {
  std::vector<std::string> paths;
  for (int i = 0; i < 8; ++i) {
    const double level = i < 4 ? 100.0 : 120.0;
    const std::string date = "2026-01-01T0" + std::to_string(i) + ":00:00Z";
    paths.push_back(report_test::write(report_test::plain_record({{"BM", {level, level + 1, level + 2}}}, date),
                                       "run" + std::to_string(i)));
  }
  const std::string text = markdown(paths);
  EXPECT_EQ(count_lines(text, R"(^- BM: 19\.8% slower from run #5, p = 0\.0[0-4][0-9]*$)"), 1) << text;
}

TEST(MarkdownReport, PlainJsonSaysWhichFactsAreMissing) {
  const std::string md =
      markdown({report_test::write(report_test::plain_record({{"BM_a", {100, 102, 98, 101, 99}}}), "plain")});
  EXPECT_EQ(count_lines(md, "### Run #1: no run id"), 1) << md;
  EXPECT_EQ(count_lines(md, ".* \\| checksum: none: plain Google Benchmark JSON"), 1) << md;
  EXPECT_EQ(
      count_lines(md, R"(\| BM\\_a \| 100 ns \| \[[0-9.]+ ns, [0-9.]+ ns\] \| .* \| 5 \| not checked \| - \| .*)"), 1)
      << md;
  EXPECT_EQ(count_lines(md, R"(\*\*Missing facts\*\* \(plain Google Benchmark JSON, without a gbx section\):)"), 1);
  for (const char* fact : {"raw samples", "environment", "protocol", "accuracy", "memory", "Pareto", "checksum"}) {
    EXPECT_EQ(count_lines(md, std::string("- ") + fact + "[ a-z]*: .*"), 1) << fact << "\n" << md;
  }
  EXPECT_EQ(count_lines(md, "## Pareto.*"), 0) << md;
}

TEST(MarkdownReport, NamesThatMarkdownWouldMisreadAreEscaped) {
  const std::string md = markdown(
      {report_test::write(report_test::plain_record({{"BM_a|b", {1, 2, 3}}, {"BM_sort<int>/8", {4, 5, 6}}}), "names")});
  EXPECT_EQ(count_lines(md, R"(\| BM\\_a\\\|b \| 2\.00 ns \| .*)"), 1) << md;
  EXPECT_EQ(count_lines(md, R"(\| BM\\_sort&lt;int&gt;/8 \| 5\.00 ns \| .*)"), 1) << md;
}

// The line number of the first line matching the pattern, or -1.
int line_of(const std::string& text, const std::string& pattern) {
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line); ++number) {
    if (gbx_test::regex_match(line, pattern)) return number;
  }
  return -1;
}

TEST(MarkdownReport, ItOpensOnTheSummaryAndTheResultsAndEndsOnTheEnvironment) {
  const std::string md = markdown({gemm_record("base", "run-1", "2026-01-01T00:00:00Z"),
                                   gemm_record("cand", "run-2", "2026-01-02T00:00:00Z", 1.5)});
  const int summary = line_of(md, "## Summary");
  const int results = line_of(md, "## Results");
  const int comparison = line_of(md, "## Comparison: #2 against #1");
  const int pareto = line_of(md, "## Pareto fronts \\(run #2\\)");
  const int environment = line_of(md, "## Environment and protocol");
  ASSERT_GE(summary, 0) << md;
  EXPECT_EQ(line_of(md, "# gbx report"), 0);
  EXPECT_LT(summary, results) << md;
  EXPECT_LT(results, line_of(md, row_pattern("gemm/fast/m:8"))) << md;
  EXPECT_LT(results, comparison) << md;
  EXPECT_LT(comparison, pareto) << md;
  EXPECT_LT(pareto, environment) << md;
  EXPECT_LT(environment, line_of(md, R"(\*\*Environment:\*\* host node-a.*)")) << "the facts come last\n" << md;
  EXPECT_LT(environment, line_of(md, "### Run #1: `.*`")) << md;
  // The summary: the counts of the last run, the regressions and the frontier.
  EXPECT_EQ(line_of(md, "- 3 benchmarks measured \\(run #2\\), 1 failed accuracy, 0 flagged"), summary + 4) << md;
  EXPECT_EQ(line_of(md, "- Against #1: 3 slower, 0 faster, 0 same, 0 undecided"), summary + 5) << md;
  EXPECT_EQ(count_lines(md, "  - gemm/[a-z]+/m:8: 5[0-9]\\.[0-9]% slower, ratio .*"), 3) << md;
  const int frontier = line_of(md, "  - gemm/m=8: fast");
  EXPECT_GT(frontier, summary) << md;
  EXPECT_LT(frontier, results) << md;
}

// One process a side and too few samples: the summary counts those rows as undecided and says why.
TEST(MarkdownReport, TheSummaryCountsTheRowsThatCouldNotBeDecided) {
  const auto record = [](const std::string& file, double scale) {
    std::vector<Entry> entries;
    for (const char* name : {"a", "b", "c"}) {
      entries.push_back(
          report_test::entry(std::string("p/") + name, "p/n=1", name, report_test::samples_around(1e-3 * scale)));
      entries.push_back(
          report_test::entry(std::string("q/") + name, "q/n=1", name, report_test::samples_around(1e-3 * scale, 4)));
    }
    return report_test::write(report_test::gbx_record(entries, "run-" + file, "2026-01-01T00:00:00Z"), file);
  };
  const std::string md = markdown({record("md-undecided-a", 1.0), record("md-undecided-b", 1.28)});
  const int line =
      line_of(md, "- Against #1: 0 slower, 0 faster, 0 same, 6 undecided \\(3 unreplicated, 3 insufficient\\)");
  ASSERT_GT(line, line_of(md, "## Summary")) << md;
  EXPECT_EQ(line_of(md,
                    "  - Undecided: 3 unreplicated \\(one process on a side.*\\), 3 insufficient \\(fewer than 6 "
                    "samples on a side\\)"),
            line + 1)
      << md;
}

TEST(MarkdownReport, BenchmarksThatCouldNotRunGetOneSummaryLinePerReasonAndAList) {
  Entry measured = report_test::entry("reduce/cpu/n:8", "reduce/n=8", "cpu", report_test::samples_around(1e-3));
  const auto record = report_test::with_not_run(
      report_test::gbx_record({measured}, "not-run", "2026-01-01T00:00:00Z"),
      {{"reduce/cub/n:8/iterations:1/manual_time", "reduce/n=8", "cub", "no CUDA device", "no_cuda_device"},
       {"reduce/warp/n:8", "reduce/n=8", "warp", "no CUDA device", "cuda_driver_missing"},
       {"multi/nccl/n:8", "multi/n=8", "nccl", "needs two processes", "unavailable"}});
  const std::string md = markdown({report_test::write(record, "record")});
  const int results = line_of(md, "## Results");
  const int summary_line = line_of(md, "- 2 CUDA benchmarks not run: no CUDA device");
  EXPECT_GT(summary_line, line_of(md, "## Summary")) << md;
  EXPECT_LT(summary_line, results) << md;
  EXPECT_LT(line_of(md, "- 1 benchmark not run: needs two processes"), results) << md;
  const int list = line_of(md, "2 CUDA benchmarks not run: no CUDA device:");
  EXPECT_GT(list, results) << md;
  EXPECT_EQ(line_of(md, "- `reduce/cub/n:8`"), list + 2) << md;
  EXPECT_EQ(line_of(md, "- `reduce/warp/n:8`"), list + 3) << md;
  EXPECT_GT(line_of(md, "- `multi/nccl/n:8`"), line_of(md, "1 benchmark not run: needs two processes:")) << md;
  EXPECT_EQ(count_lines(md, R"(\| reduce/(cub|warp)/n:8 \|.*)"), 0) << "no rows of results for them";
}

TEST(MarkdownReport, ARecordFromBeforeNotRunListsItsSkippedBenchmarksAsBefore) {
  Entry measured = report_test::entry("reduce/cpu/n:8", "reduce/n=8", "cpu", report_test::samples_around(1e-3));
  const auto record =
      report_test::with_skipped_entry(report_test::gbx_record({measured}, "old", "2026-01-01T00:00:00Z"),
                                      {"reduce/cub/n:8", "reduce/n=8", "cub", "no CUDA device", ""});
  const std::string md = markdown({report_test::write(record, "record")});
  EXPECT_GT(line_of(md, "- skipped: `reduce/cub/n:8`: no CUDA device"), line_of(md, "## Results")) << md;
  EXPECT_EQ(count_lines(md, ".* not run: .*"), 0) << md;
}

TEST(MarkdownReport, TheFlagsShownAreExplainedBelowTheTable) {
  Entry a = report_test::entry("f/a", "f/n=1", "a", report_test::samples_around(1e-3));
  a.flags = {"slow_start", "drift"};
  const std::string md =
      markdown({report_test::write(report_test::gbx_record({a}, "flags", "2026-01-01T00:00:00Z"), "record")});
  const int legend = line_of(md, R"(\*\*Flags:\*\*)");
  EXPECT_GT(legend, line_of(md, row_pattern("f/a"))) << md;
  EXPECT_LT(legend, line_of(md, "## Environment and protocol")) << md;
  // In flag_meanings() order, each with its meaning from text/flag_legend.cc.
  EXPECT_EQ(line_of(md, "- `slow_start`: the first samples were slower than the rest: .*"), legend + 2) << md;
  EXPECT_EQ(line_of(md, "- `drift`: the second half of the samples .*"), legend + 3) << md;
  EXPECT_EQ(count_lines(md, "- `outliers`: .*"), 0) << "only the flags present";
  const std::string clean = markdown({gemm_record("clean", "run-1", "2026-01-01T00:00:00Z")});
  EXPECT_EQ(count_lines(clean, R"(\*\*Flags:\*\*)"), 0) << clean;
}

}  // namespace

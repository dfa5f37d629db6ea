// The exporters' model (report/export_metrics.h) and each format's writer, on the record of
// export_records.h: what is exported, under which name, and what is left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "report/export_bencher.h"
#include "report/export_conbench.h"
#include "report/export_github.h"
#include "report/export_metrics.h"
#include "tests/export/export_records.h"

namespace {

using gbx::tools::ExportedBenchmark;
using gbx::tools::ExportRun;
using gbx::tools::MetricKind;
using report_test::json;

gbx::LoadedRecord loaded(const json& record, const std::string& name = "record") {
  return gbx::load_record(report_test::write(record, name));
}

const ExportedBenchmark* find(const ExportRun& run, const std::string& name) {
  for (const auto& b : run.benchmarks) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

std::vector<MetricKind> kinds(const ExportedBenchmark& b) {
  std::vector<MetricKind> list;
  for (const auto& m : b.metrics) list.push_back(m.kind);
  return list;
}

TEST(Export, MeasuredBenchmarksOnlyNamedAsTheConsoleNamesThem) {
  const auto record = loaded(export_test::export_record());
  const ExportRun run = gbx::tools::export_run(record);
  std::vector<std::string> names;
  for (const auto& b : run.benchmarks) names.push_back(b.name);
  // The failed, the skipped and the not-run benchmarks are not there; n:4096 is in the name already, and
  // block is not.
  EXPECT_EQ(names, (std::vector<std::string>{"gemm/openblas_sgemm/m:1024/n:1024/k:1024",
                                             "reduce/cuda_pairwise/n:4096 [block=256]",
                                             "gemm/cpu_naive/m:1024/n:1024/k:1024"}));
  EXPECT_EQ(run.machine.testbed(), "NVIDIA H200 / Test CPU");
  EXPECT_EQ(run.machine.commit, "0123456789abcdef");
}

TEST(Export, AMetricTheRecordLacksIsLeftOut) {
  const auto record = loaded(export_test::export_record());
  const ExportRun run = gbx::tools::export_run(record);
  const ExportedBenchmark* naive = find(run, "gemm/cpu_naive/m:1024/n:1024/k:1024");
  ASSERT_NE(naive, nullptr);
  EXPECT_EQ(kinds(*naive), std::vector<MetricKind>{MetricKind::latency});
  const ExportedBenchmark* gemm = find(run, "gemm/openblas_sgemm/m:1024/n:1024/k:1024");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(kinds(*gemm), (std::vector<MetricKind>{MetricKind::latency, MetricKind::flop_rate, MetricKind::byte_rate,
                                                   MetricKind::energy, MetricKind::error, MetricKind::peak_memory}));
  const json bmf = gbx::tools::bencher_metric_format({run});
  EXPECT_FALSE(bmf["gemm/cpu_naive/m:1024/n:1024/k:1024"].contains("relative-error"));
  EXPECT_FALSE(bmf["gemm/cpu_naive/m:1024/n:1024/k:1024"].contains("peak-memory"));
}

TEST(Export, LatencyIsTheProcessLevelEstimateAndRatesFollowItsBounds) {
  const auto record = loaded(export_test::export_record());
  const ExportRun run = gbx::tools::export_run(record);
  const ExportedBenchmark* reduce = find(run, "reduce/cuda_pairwise/n:4096 [block=256]");
  ASSERT_NE(reduce, nullptr);
  const auto& latency = reduce->metrics.front();
  EXPECT_DOUBLE_EQ(latency.value, 5.1e-6);
  EXPECT_DOUBLE_EQ(*latency.lower, 4.9e-6);
  EXPECT_DOUBLE_EQ(*latency.upper, 5.4e-6);
  EXPECT_EQ(latency.method, "log-t-process-medians");
  EXPECT_EQ(reduce->latency_data.size(), 4U);  // one median per process, the unit of replication
  EXPECT_TRUE(reduce->latency_data_per_process);
  const auto rate = std::find_if(reduce->metrics.begin(), reduce->metrics.end(),
                                 [](const auto& m) { return m.kind == MetricKind::byte_rate; });
  ASSERT_NE(rate, reduce->metrics.end());
  EXPECT_DOUBLE_EQ(rate->value, 16384.0 / 5.1e-6);  // the declared bytes over the latency
  EXPECT_DOUBLE_EQ(*rate->lower, 16384.0 / 5.4e-6);
  EXPECT_DOUBLE_EQ(*rate->upper, 16384.0 / 4.9e-6);
  // GPU energy has no interval in this record: none is made up.
  const auto energy = std::find_if(reduce->metrics.begin(), reduce->metrics.end(),
                                   [](const auto& m) { return m.kind == MetricKind::energy; });
  ASSERT_NE(energy, reduce->metrics.end());
  EXPECT_FALSE(energy->lower.has_value());
}

TEST(Export, GithubSplitsByDirectionAndConbenchByUnit) {
  const auto record = loaded(export_test::export_record());
  const ExportRun run = gbx::tools::export_run(record);
  const auto files = gbx::tools::github_action_benchmark({run});
  for (const auto& e : files.bigger_is_better) {
    const std::string name = e["name"];
    EXPECT_TRUE(name.find(" - flop-rate") != std::string::npos || name.find(" - byte-rate") != std::string::npos)
        << name;
  }
  // latency, energy, error and memory of the GEMM and the reduction, the naive GEMM's latency alone.
  EXPECT_EQ(files.smaller_is_better.size(), 4U + 4U + 1U);
  EXPECT_EQ(files.bigger_is_better.size(), 2U + 1U);  // the GEMM's two rates, the reduction's bytes
  const json results = gbx::tools::conbench_results({run}, {"https://github.com/example/project", ""});
  for (const auto& r : results) {
    const std::string unit = r["stats"]["unit"];
    EXPECT_TRUE(unit == "s" || unit == "B/s" || unit == "i/s" || unit == "B") << unit;
  }
}

TEST(Export, PlainGoogleBenchmarkJsonGivesLatencyByName) {
  const auto record = loaded(report_test::plain_record({{"BM_a", {10.0, 11.0, 12.0}}, {"BM_b", {5.0}}}), "plain");
  const ExportRun run = gbx::tools::export_run(record);
  ASSERT_EQ(run.benchmarks.size(), 2U);
  EXPECT_EQ(run.benchmarks[0].name, "BM_a");
  EXPECT_EQ(kinds(run.benchmarks[0]), std::vector<MetricKind>{MetricKind::latency});
  EXPECT_NEAR(run.benchmarks[0].metrics[0].value, 11e-9, 1e-15);
  EXPECT_TRUE(run.benchmarks[0].metrics[0].lower.has_value());
  EXPECT_FALSE(run.benchmarks[1].metrics[0].lower.has_value());  // one repetition: no interval to give
}

// An axis the shown name carries is not added again, whatever its spelling in gbx.axes: a float axis
// recorded as 2.0 is the name's a:2, and a plain benchmark's unnamed argument (arg0) its 4096.
TEST(Export, TheNameCarriesEachAxisOnce) {
  using report_test::entry;
  using report_test::samples_around;
  std::vector<report_test::Entry> entries{
      entry("saxpy/loop/n:4096/a:2/iterations:1/manual_time", "saxpy/n=4096/a=2", "loop", samples_around(1e-3)),
      entry("BM_copy/4096", "BM_copy/4096", "", samples_around(2e-3)),
      entry("BM_manual/n:2048/manual_time", "BM_manual/n:2048", "", samples_around(3e-3))};
  json record = report_test::gbx_record(entries, "axes", "2026-12-01T00:00:00Z");
  record["benchmarks"][0]["gbx"]["axes"] = {{"n", 4096}, {"a", 2.0}};
  record["benchmarks"][1]["gbx"]["axes"] = {{"arg0", 4096}};
  record["benchmarks"][2]["gbx"]["axes"] = {{"n", 2048}};
  record["gbx"].erase("checksum");
  gbx::seal_record(record);
  const ExportRun run = gbx::tools::export_run(loaded(record, "axes"));
  std::vector<std::string> names;
  for (const auto& b : run.benchmarks) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"saxpy/loop/n:4096/a:2", "BM_copy/4096", "BM_manual/n:2048/manual_time"}));
  const json bmf = gbx::tools::bencher_metric_format({run});
  EXPECT_TRUE(bmf.contains("saxpy/loop/n:4096/a:2")) << bmf.dump();
}

TEST(Export, RefusesTwoBenchmarksOfOneNameAndRecordsOfTwoCommits) {
  // Distinct Google Benchmark names that are shown alike: only gbx's constant suffix tells them apart.
  std::vector<report_test::Entry> entries{
      report_test::entry("BM_x/1/iterations:1/manual_time", "p", "v", report_test::samples_around(1e-3)),
      report_test::entry("BM_x/1", "q", "w", report_test::samples_around(2e-3))};
  const auto twice = loaded(report_test::gbx_record(entries, "twice", "2026-12-01T00:00:00Z"), "twice");
  EXPECT_THROW(gbx::tools::export_run(twice), gbx::tools::ExportError);

  json other = export_test::export_record();
  other["gbx"]["environment"]["source"]["commit"] = "fedcba9876543210";
  other["gbx"].erase("checksum");
  gbx::seal_record(other);
  const auto a = loaded(export_test::export_record(), "a");
  const auto b = loaded(other, "b");
  const std::vector<ExportRun> runs{gbx::tools::export_run(a), gbx::tools::export_run(b)};
  EXPECT_THROW(gbx::tools::bencher_metric_format(runs), gbx::tools::ExportError);
  EXPECT_NO_THROW(gbx::tools::conbench_results(runs, {"https://github.com/example/project", ""}));
}

}  // namespace

// The exporters' model (report/export_metrics.h) and each format's writer, on the record of
// export_records.h: what is exported, under which name, and what is left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
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
                                             "gemm/cpu_naive/m:1024/n:1024/k:1024", "BM_items/1024"}));
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
    const bool rate = name.find(" - flop-rate") != std::string::npos ||
                      name.find(" - byte-rate") != std::string::npos || name.find(" - item-rate") != std::string::npos;
    EXPECT_TRUE(rate || e["unit"] == "") << name;  // a rate, or a user counter
  }
  // latency, energy, error and memory of the GEMM and the reduction, the naive GEMM's and the plain
  // benchmark's latency alone.
  EXPECT_EQ(files.smaller_is_better.size(), 4U + 4U + 1U + 1U);
  // The GEMM's two rates, the reduction's bytes and counter, the plain benchmark's items and counter.
  EXPECT_EQ(files.bigger_is_better.size(), 2U + 2U + 2U);
  const json results = gbx::tools::conbench_results({run}, {"https://github.com/example/project", ""});
  for (const auto& r : results) {
    const std::string unit = r["stats"]["unit"];
    EXPECT_TRUE(unit == "s" || unit == "B/s" || unit == "i/s" || unit == "B") << unit;
  }
}

const ExportedBenchmark* find_checked(const ExportRun& run, const std::string& name) {
  const ExportedBenchmark* b = find(run, name);
  EXPECT_NE(b, nullptr) << name;
  return b;
}

const json* conbench_result(const json& results, const std::string& name, const std::string& metric) {
  for (const auto& r : results) {
    if (r["tags"]["name"] == name && r["tags"]["metric"] == metric) return &r;
  }
  return nullptr;
}

// A plain benchmark's items_per_second is an item rate, its counters are carried through; a gbx
// benchmark keeps its FLOP rate, and gbx's counters on its row are not user counters.
TEST(Export, PlainBenchmarkGivesItsItemRateAndCountersInEachFormat) {
  const auto record = loaded(export_test::export_record());
  const ExportRun run = gbx::tools::export_run(record);
  const ExportedBenchmark* plain = find_checked(run, "BM_items/1024");
  const ExportedBenchmark* gemm = find_checked(run, "gemm/openblas_sgemm/m:1024/n:1024/k:1024");
  const ExportedBenchmark* reduce = find_checked(run, "reduce/cuda_pairwise/n:4096 [block=256]");
  ASSERT_TRUE(plain && gemm && reduce);
  EXPECT_TRUE(plain->plain);
  EXPECT_EQ(kinds(*plain), (std::vector<MetricKind>{MetricKind::latency, MetricKind::item_rate}));
  // 1024 items per iteration (items_per_second times the CPU time it was divided by) over the latency.
  EXPECT_NEAR(plain->metrics[1].value, 1024.0 / plain->metrics[0].value, 1e-6 * plain->metrics[1].value);
  ASSERT_EQ(plain->counters.size(), 1U);  // "broken" is null: left out
  EXPECT_EQ(plain->counters[0].name, "elements");
  EXPECT_EQ(plain->counters[0].value, 2048.0);
  EXPECT_EQ(kinds(*gemm)[1], MetricKind::flop_rate);
  EXPECT_TRUE(gemm->counters.empty());  // samples, batch, items_per_second are gbx's
  ASSERT_EQ(reduce->counters.size(), 1U);
  EXPECT_EQ(reduce->counters[0].name, "blocks");

  const json bmf = gbx::tools::bencher_metric_format({run});
  EXPECT_EQ(bmf["BM_items/1024"]["elements"], json({{"value", 2048.0}}));
  EXPECT_TRUE(bmf["BM_items/1024"].contains("item-rate"));
  EXPECT_FALSE(bmf["BM_items/1024"].contains("flop-rate"));
  EXPECT_FALSE(bmf["BM_items/1024"].contains("broken"));
  EXPECT_EQ(bmf["reduce/cuda_pairwise/n:4096 [block=256]"]["blocks"]["value"], 16.0);
  EXPECT_TRUE(bmf["gemm/openblas_sgemm/m:1024/n:1024/k:1024"].contains("flop-rate"));
  EXPECT_FALSE(bmf["gemm/openblas_sgemm/m:1024/n:1024/k:1024"].contains("items_per_second"));

  const auto files = gbx::tools::github_action_benchmark({run});
  const auto named = [&files](const std::string& name) -> const json* {
    for (const auto& e : files.bigger_is_better) {
      if (e["name"] == name) return &e;
    }
    return nullptr;
  };
  const json* counter = named("BM_items/1024 elements");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ((*counter)["unit"], "");
  EXPECT_EQ((*counter)["value"], 2048.0);
  ASSERT_NE(named("BM_items/1024 - item-rate"), nullptr);
  EXPECT_EQ((*named("BM_items/1024 - item-rate"))["unit"], "items/s");
  EXPECT_EQ(named("BM_items/1024 - flop-rate"), nullptr);
  EXPECT_NE(named("gemm/openblas_sgemm/m:1024/n:1024/k:1024 - flop-rate"), nullptr);

  const json results = gbx::tools::conbench_results({run}, {"https://github.com/example/project", ""});
  const json* latency = conbench_result(results, "BM_items/1024", "latency");
  ASSERT_NE(latency, nullptr);
  EXPECT_EQ((*latency)["optional_benchmark_info"]["gbx"]["counters"], json({{"elements", 2048.0}}));
  const json* items = conbench_result(results, "BM_items/1024", "item-rate");
  ASSERT_NE(items, nullptr);
  EXPECT_EQ((*items)["stats"]["unit"], "i/s");
  EXPECT_EQ(conbench_result(results, "BM_items/1024", "flop-rate"), nullptr);
  EXPECT_NE(conbench_result(results, "gemm/openblas_sgemm/m:1024/n:1024/k:1024", "flop-rate"), nullptr);
}

// JSON holds no NaN or Infinity: a counter that is not finite is not written, in any format.
TEST(Export, ACounterThatIsNotFiniteIsNeverWritten) {
  auto record = loaded(export_test::export_record());
  for (auto& row : record.json["benchmarks"]) {
    if (row["name"] != "BM_items/1024") continue;
    row["elements"] = std::nan("");
    row["huge"] = std::numeric_limits<double>::infinity();
    row["small"] = -std::numeric_limits<double>::infinity();
  }
  const ExportRun run = gbx::tools::export_run(record);
  const ExportedBenchmark* plain = find_checked(run, "BM_items/1024");
  ASSERT_NE(plain, nullptr);
  EXPECT_TRUE(plain->counters.empty());
  const auto files = gbx::tools::github_action_benchmark({run});
  for (const std::string& text :
       {gbx::tools::bencher_metric_format({run}).dump(), files.bigger_is_better.dump(),
        gbx::tools::conbench_results({run}, {"https://github.com/example/project", ""}).dump()}) {
    EXPECT_EQ(text.find("elements"), std::string::npos) << text;
    EXPECT_EQ(text.find("huge"), std::string::npos);
    EXPECT_EQ(text.find("null"), std::string::npos);  // nlohmann writes a NaN as null
  }
}

// A counter named as one of gbx's measures would share its Bencher charts and thresholds: refused.
TEST(Export, BencherRefusesACounterNamedAsAMeasure) {
  auto record = loaded(export_test::export_record());
  for (auto& row : record.json["benchmarks"]) {
    if (row["name"] == "BM_items/1024") row["latency"] = 3.0;
  }
  const ExportRun run = gbx::tools::export_run(record);
  try {
    gbx::tools::bencher_metric_format({run});
    ADD_FAILURE() << "a counter named latency was exported";
  } catch (const gbx::tools::ExportError& error) {
    EXPECT_NE(std::string(error.what()).find("'latency'"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("BM_items/1024"), std::string::npos) << error.what();
  }
  EXPECT_NO_THROW(gbx::tools::github_action_benchmark({run}));  // "BM_items/1024 latency" is its own name
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

// Google Benchmark's own JSON, with no gbx section: its items_per_second is an item rate, over the
// time Google Benchmark divided it by (real time for a manual-time benchmark, CPU time otherwise),
// and its counters are the median over its repetitions.
TEST(Export, PlainGoogleBenchmarkJsonGivesItemRateAndCounters) {
  json record = report_test::plain_record({{"BM_cpu", {10.0, 11.0, 12.0}}, {"BM_m/manual_time", {10.0, 10.0, 10.0}}});
  for (auto& row : record["benchmarks"]) {
    if (row["run_type"] != "iteration") continue;
    const double real = row["real_time"];
    row["cpu_time"] = real * 4;  // ns
    const bool manual = row["name"] == "BM_m/manual_time";
    row["items_per_second"] = 100.0 / ((manual ? real : real * 4) * 1e-9);  // 100 items per iteration
    row["elements"] = real;                                                 // median over 10, 11, 12: 11
  }
  const ExportRun run = gbx::tools::export_run(loaded(record, "plain_items"));
  ASSERT_EQ(run.benchmarks.size(), 2U);
  for (const auto& b : run.benchmarks) {
    EXPECT_TRUE(b.plain);
    ASSERT_EQ(kinds(b), (std::vector<MetricKind>{MetricKind::latency, MetricKind::item_rate})) << b.name;
    EXPECT_NEAR(b.metrics[1].value, 100.0 / b.metrics[0].value, 1e-6 * b.metrics[1].value) << b.name;
    ASSERT_EQ(b.counters.size(), 1U);
    EXPECT_EQ(b.counters[0].value, b.name == "BM_cpu" ? 11.0 : 10.0);
  }
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

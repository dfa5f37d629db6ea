// The HTML report's side of its contract (docs/report.md): escaping, one chart container per kind and
// spec, the specs script, the tables; and what the charts say when data are large, missing or zero.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "report/html_report.h"
#include "report/html_report_charts.h"
#include "report/report_model.h"
#include "tests/report/records.h"
#include "text/escape.h"
#include "text/flag_legend.h"

namespace {

using gbx::tools::Chart;
using gbx::tools::ReportModel;
using report_test::Entry;
using report_test::json;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
  return count;
}

std::map<std::string, int> kinds(const std::vector<Chart>& charts) {
  std::map<std::string, int> count;
  for (const auto& chart : charts) ++count[chart.kind];
  return count;
}

std::string run_file(const std::string& file, const std::string& created, double scale) {
  Entry fast = report_test::entry("gemm/fast/m:8", "gemm/m=8", "fast", report_test::samples_around(1e-3 * scale));
  fast.gflops = 20.0;
  fast.arithmetic_intensity = 2.0;
  Entry slow = report_test::entry("gemm/slow/m:8", "gemm/m=8", "slow", report_test::samples_around(4e-3 * scale));
  Entry copy = report_test::entry("copy/n:8", "copy/n=8", "memcpy", report_test::samples_around(1e-6 * scale));
  copy.gbytes = 25.0;  // bandwidth only
  return report_test::write(report_test::gbx_record({fast, slow, copy}, "run-" + file, created), file);
}

TEST(HtmlReport, TextAndScriptsAreEscaped) {
  EXPECT_EQ(gbx::html_text("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
  using gbx::ScriptContent;
  EXPECT_EQ(gbx::script_text("a</script>b</SCRIPT >c</scrip</sCrIpT", ScriptContent::code),
            "a<\\/script>b<\\/SCRIPT >c</scrip<\\/sCrIpT");
  EXPECT_EQ(gbx::script_text("x.replace(/</g, y) </ z", ScriptContent::code), "x.replace(/</g, y) </ z")
      << "a regular expression /</g stays one";
  EXPECT_EQ(gbx::script_text("\"<!--<script>\"", ScriptContent::code), "\"<\\u0021--<script>\"")
      << "no escaped state to hide a </script in";
  EXPECT_EQ(gbx::script_text("</script", ScriptContent::code), "<\\/script") << "at the very end";
  const std::string data = gbx::script_text(json("</b><!--").dump(), ScriptContent::json);
  EXPECT_EQ(data.find('<'), std::string::npos) << data;
  EXPECT_EQ(json::parse(data), "</b><!--") << "JSON reads it back";
}

TEST(HtmlReport, OneChartPerKindAsTheRunsAsk) {
  const std::string a = run_file("a", "2026-01-01T00:00:00Z", 1.0);
  const std::string b = run_file("b", "2026-01-02T00:00:00Z", 1.1);
  const std::string c = run_file("c", "2026-01-03T00:00:00Z", 1.2);

  auto one = kinds(gbx::tools::report_charts(gbx::tools::build_report_model({a})));
  EXPECT_EQ(one["ecdf"], 3);
  EXPECT_EQ(one["pareto"], 1) << "gemm/m=8 has two variants; copy/n=8 one";
  EXPECT_EQ(one["throughput"], 1);
  EXPECT_EQ(one["compare"], 0);
  EXPECT_EQ(one["trend"], 0);

  auto two = kinds(gbx::tools::report_charts(gbx::tools::build_report_model({a, b})));
  EXPECT_EQ(two["ecdf"], 3) << "one chart per benchmark, one line per run";
  EXPECT_EQ(two["compare"], 1);
  EXPECT_EQ(two["trend"], 0);

  auto three = kinds(gbx::tools::report_charts(gbx::tools::build_report_model({a, b, c})));
  EXPECT_EQ(three["compare"], 0);
  EXPECT_EQ(three["trend"], 3);
  EXPECT_EQ(three["pareto"], 1) << "the last run's fronts only";
}

TEST(HtmlReport, ThePageFollowsTheContract) {
  json record = report_test::plain_record({{"BM_</script><b>", {1, 2, 3}}, {"BM_ok", {4, 5, 6}}});
  const ReportModel model = gbx::tools::build_report_model(
      {report_test::write(record, "plain"), run_file("gbx", "2026-01-01T00:00:00Z", 1.0)});
  const std::string page = gbx::tools::html_report(model, {"/*VEGA*/", "/*VEGALITE*/"});
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<script>/*VEGA*/</script>"), std::string::npos) << "the libraries are inlined";
  EXPECT_NE(page.find("<script>/*VEGALITE*/</script>"), std::string::npos);
  EXPECT_EQ(occurrences(page, "<script"), occurrences(page, "</script>")) << "a name closed a script element";
  EXPECT_EQ(occurrences(page, "http://") + occurrences(page, "https://"), 0u);

  const std::string open = "<script type=\"application/json\" id=\"gbx-specs\">";
  const auto from = page.find(open);
  ASSERT_NE(from, std::string::npos);
  const auto to = page.find("</script>", from);
  const json specs = json::parse(page.substr(from + open.size(), to - from - open.size()));
  const auto charts = gbx::tools::report_charts(model);
  ASSERT_EQ(specs.size(), charts.size());
  for (const auto& chart : charts) {
    EXPECT_TRUE(specs.contains(chart.id)) << chart.id;
    EXPECT_EQ(occurrences(page, "<div class=\"gbx-chart\" id=\"" + chart.id + "\" data-kind=\"" + chart.kind + "\""),
              1u)
        << chart.id;
  }
  EXPECT_EQ(specs.dump().find("BM_</script><b>") != std::string::npos, true) << "the spec keeps the name as it is";

  EXPECT_EQ(occurrences(page, "<table class=\"gbx-benchmarks\" data-run=\"0\">"), 1u);
  EXPECT_EQ(occurrences(page, "<table class=\"gbx-benchmarks\" data-run=\"1\">"), 1u);
  EXPECT_EQ(occurrences(page, "<tr data-name=\"BM_&lt;/script&gt;&lt;b&gt;\">"), 1u);
  EXPECT_EQ(occurrences(page, "<tr data-name=\"gemm/fast/m:8\">"), 1u);
  EXPECT_EQ(occurrences(page, "<tr data-name="), 5u) << "two plain names and three gbx ones";
  EXPECT_EQ(occurrences(page, "class=\"gbx-missing\""), 1u) << "only the plain record lacks facts";
  EXPECT_NE(page.find("data-kind=\"compare\""), std::string::npos);
  EXPECT_NE(page.find("window.gbxReport"), std::string::npos);
  EXPECT_NE(page.find("dataset.gbxRendered"), std::string::npos);
}

const json& layer_with_mark(const json& spec, const std::string& mark) {
  for (const auto& layer : spec["layer"]) {
    const json& m = layer["mark"];
    if ((m.is_string() && m == mark) || (m.is_object() && m["type"] == mark)) return layer;
  }
  static const json none;
  return none;
}

TEST(HtmlReport, AnEcdfOfManySamplesIsDrawnThroughAThousandQuantilesAndSaysSo) {
  std::vector<double> samples;
  for (int i = 0; i < 5000; ++i) samples.push_back(1e-3 + 1e-9 * ((i * 7919) % 5000));
  const ReportModel model = gbx::tools::build_report_model({report_test::write(
      report_test::gbx_record({report_test::entry("big", "big/n=1", "v", samples)}, "r", "2026-01-01T00:00:00Z"),
      "big")});
  const auto charts = gbx::tools::report_charts(model);
  ASSERT_EQ(charts.at(0).kind, "ecdf");
  const json& line = layer_with_mark(charts[0].spec, "line");
  ASSERT_FALSE(line.is_null());
  // The points are CSV (run,t,p,i), which is compact in memory and in the page (issue 13).
  ASSERT_EQ(line["data"]["format"]["type"], "csv");
  const std::string csv = line["data"]["values"].get<std::string>();
  ASSERT_EQ(csv.rfind("run,t,p,i\n", 0), 0u) << csv.substr(0, 40);
  const auto points = occurrences(csv, "\n") - 1;
  EXPECT_LE(points, 1001u);
  EXPECT_GE(points, 900u);
  const std::string last = csv.substr(csv.rfind('\n', csv.size() - 2) + 1);
  EXPECT_EQ(last.rfind("#1,", 0), 0u) << last;
  EXPECT_NE(last.find(",1,"), std::string::npos) << "the curve reaches the largest sample: " << last;
  EXPECT_NE(charts[0].spec["title"].dump().find("n = 5000, drawn through 1000 of its quantiles"), std::string::npos)
      << charts[0].spec["title"].dump();
}

json pareto_spec(const std::vector<Entry>& entries) {
  const ReportModel model = gbx::tools::build_report_model(
      {report_test::write(report_test::gbx_record(entries, "r", "2026-01-01T00:00:00Z"), "pareto")});
  for (const auto& chart : gbx::tools::report_charts(model)) {
    if (chart.kind == "pareto") return chart.spec;
  }
  return nullptr;
}

TEST(HtmlReport, AParetoChartShowsZeroErrorsOnASymlogScaleAndSaysWhenErrorsAreMissing) {
  Entry exact = report_test::entry("p/exact", "p/n=1", "exact", report_test::samples_around(2e-3));
  exact.error = 0.0;
  Entry close = report_test::entry("p/close", "p/n=1", "close", report_test::samples_around(1e-3));
  close.error = 1e-6;
  const json with_zero = pareto_spec({exact, close});
  ASSERT_FALSE(with_zero.is_null());
  const json& points = layer_with_mark(with_zero, "point");
  EXPECT_EQ(points["encoding"]["y"]["scale"]["type"], "symlog");
  EXPECT_NE(with_zero["title"].dump().find("exactly 0"), std::string::npos) << with_zero["title"].dump();

  exact.error = 1e-7;
  EXPECT_EQ(layer_with_mark(pareto_spec({exact, close}), "point")["encoding"]["y"]["scale"]["type"], "log");

  exact.error.reset();
  close.error.reset();
  const json without = pareto_spec({exact, close});
  EXPECT_NE(without["title"]["text"].get<std::string>().find("error not recorded"), std::string::npos)
      << without["title"].dump();
  EXPECT_EQ(layer_with_mark(without, "point")["encoding"]["y"]["field"], "memory") << "plots what exists";
}

TEST(HtmlReport, AFailedVariantIsMarkedApart) {
  Entry good = report_test::entry("p/good", "p/n=1", "good", report_test::samples_around(1e-3));
  Entry bad = report_test::entry("p/bad", "p/n=1", "bad", report_test::samples_around(5e-4));
  bad.error = 0.5;
  bad.passed = false;
  const json spec = pareto_spec({good, bad});
  ASSERT_FALSE(spec.is_null());
  bool failed_point = false;
  for (const auto& v : spec["data"]["values"])
    failed_point |= v["variant"] == "bad" && v["status"] == "failed accuracy";
  EXPECT_TRUE(failed_point) << spec["data"].dump();
  EXPECT_NE(spec.dump().find("datum.status === 'failed accuracy'"), std::string::npos) << "its own layer and shape";
}

TEST(HtmlReport, ThePageOpensOnTheSummaryAndTheResultsAndEndsOnTheCollapsedDetails) {
  const std::string a = run_file("a", "2026-01-01T00:00:00Z", 1.0);
  const std::string b = run_file("b", "2026-01-02T00:00:00Z", 1.3);
  const std::string page = gbx::tools::html_report(gbx::tools::build_report_model({a, b}), {"", ""});
  const auto at = [&](const std::string& what) {
    const auto found = page.find(what);
    EXPECT_NE(found, std::string::npos) << what;
    return found;
  };
  const auto summary = at("<section id=\"summary\">");
  const auto results = at("<section id=\"results\">");
  const auto comparison = at("<section id=\"comparison\">");
  const auto distributions = at("<section id=\"distributions\">");
  const auto details = at("<section id=\"runs\">");
  EXPECT_LT(summary, results);
  EXPECT_LT(results, comparison);
  EXPECT_LT(comparison, distributions);
  EXPECT_LT(distributions, details);
  EXPECT_LT(at("<summary>Environment</summary>"), at("</body>"));
  EXPECT_GT(at("<summary>Environment</summary>"), details) << "environment last";
  EXPECT_EQ(occurrences(page, "<details open"), 0u) << "environment and protocol collapsed";
  EXPECT_EQ(occurrences(page, "<details>"), 4u) << "environment and protocol of each run";
  // The summary: counts, the regressions of the comparison and the Pareto frontier.
  const std::string head = page.substr(summary, results - summary);
  EXPECT_NE(head.find("<b>3</b><span>benchmarks measured (run #2)</span>"), std::string::npos) << head;
  EXPECT_NE(head.find("slower than #1"), std::string::npos) << head;
  EXPECT_NE(head.find("gemm/m=8: fast"), std::string::npos) << "the frontier of gemm/m=8: " << head;
  // Secondary columns are marked so that the table fits the page.
  EXPECT_EQ(occurrences(page, "<th scope=\"col\" tabindex=\"0\" data-type=\"number\" class=\"gbx-secondary\">"),
            2u * 5u);
  EXPECT_NE(page.find("class=\"gbx-all-columns\""), std::string::npos) << "a switch shows them";
}

// Two one-process records 28% apart: three rows unreplicated, three with too few samples. The tiles
// count them as undecided beside slower, faster and same, and say why, rather than "0 slower, 0 faster"
// over a run that gbx compare's gate refuses to pass (exit 3).
TEST(HtmlReport, TheSummaryCountsTheRowsThatCouldNotBeDecided) {
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
  const std::string page = gbx::tools::html_report(
      gbx::tools::build_report_model({record("undecided-a", 1.0), record("undecided-b", 1.28)}), {"", ""});
  const auto summary = page.find("<section id=\"summary\">");
  const auto results = page.find("<section id=\"results\">");
  ASSERT_LT(summary, results);
  const std::string head = page.substr(summary, results - summary);
  EXPECT_NE(head.find("<b>0</b><span>slower than #1</span>"), std::string::npos) << head;
  EXPECT_NE(head.find("<b>0</b><span>faster</span>"), std::string::npos) << head;
  EXPECT_NE(head.find("<b>0</b><span>same</span>"), std::string::npos) << head;
  EXPECT_NE(
      head.find("<div class=\"gbx-card gbx-warn\"><b>6</b><span>undecided: 3 unreplicated, 3 insufficient</span>"),
      std::string::npos)
      << head;
  EXPECT_NE(head.find("Undecided, neither slower, faster nor same: 3 unreplicated (one process on a side, "),
            std::string::npos)
      << head;
  EXPECT_NE(head.find(", 3 insufficient (fewer than 6 samples on a side)"), std::string::npos) << head;
  EXPECT_NE(head.find("exit 3"), std::string::npos) << "the gate's answer is named: " << head;

  // Decided rows leave a plain tile and no sentence; every row is counted once.
  ReportModel decided = gbx::tools::build_report_model({record("decided-a", 1.0), record("decided-b", 1.28)});
  ASSERT_TRUE(decided.comparison.has_value());
  ASSERT_EQ(decided.comparison->rows.size(), 6u);
  for (std::size_t i = 0; i < decided.comparison->rows.size(); ++i) {
    decided.comparison->rows[i].verdict = i < 2 ? gbx::Verdict::same : gbx::Verdict::faster;
  }
  const std::string plain = gbx::tools::html_report(decided, {"", ""});
  const std::string plain_head = plain.substr(0, plain.find("<section id=\"results\">"));
  EXPECT_NE(plain_head.find("<b>4</b><span>faster</span>"), std::string::npos) << plain_head;
  EXPECT_NE(plain_head.find("<b>2</b><span>same</span>"), std::string::npos) << plain_head;
  EXPECT_NE(plain_head.find("<div class=\"gbx-card\"><b>0</b><span>undecided</span>"), std::string::npos) << plain_head;
  EXPECT_EQ(plain_head.find("Undecided"), std::string::npos) << plain_head;
}

TEST(HtmlReport, ParetoPointsAreLabelledByTheLabelTransformNotATextLayer) {
  Entry fast = report_test::entry("p/a", "p/n=1", "openblas_sgemm", report_test::samples_around(1e-3));
  Entry slow = report_test::entry("p/b", "p/n=1", "cpu_blocked", report_test::samples_around(1.001e-3));
  const json spec = pareto_spec({fast, slow});
  ASSERT_FALSE(spec.is_null());
  EXPECT_TRUE(layer_with_mark(spec, "text").is_null()) << "a text layer prints labels over each other";
  const json& labels = spec["usermeta"]["gbxLabels"];
  ASSERT_TRUE(labels.is_object()) << spec.dump();
  EXPECT_EQ(labels["field"], "variant");
  bool named = false;
  for (const auto& layer : spec["layer"]) named |= layer.value("name", "") == labels["layer"];
  EXPECT_TRUE(named) << "the labelled layer exists: " << spec["layer"].dump();
}

TEST(HtmlReport, TickLabelsShowTheDigitsTheDataNeeds) {
  using gbx::tools::html::tick_format;
  EXPECT_EQ(tick_format(4.306, 4.306), ".5~r") << "flat: the 1e-3 floor of the spread";
  EXPECT_EQ(tick_format(4.2, 4.4), ".4~r");
  EXPECT_EQ(tick_format(1.0, 1000.0), ".3~r");
  EXPECT_EQ(tick_format(0.0, 0.0), "~r");
}

TEST(HtmlReport, ATrendDrawsItsChangePointsAsRules) {
  const std::string a = run_file("a", "2026-01-01T00:00:00Z", 1.0);
  const std::string b = run_file("b", "2026-01-02T00:00:00Z", 1.0);
  const std::string c = run_file("c", "2026-01-03T00:00:00Z", 1.5);
  ReportModel model = gbx::tools::build_report_model({a, b, c});
  ASSERT_FALSE(model.trends.empty());
  const auto rules = [](const json& spec) {
    std::size_t count = 0;
    for (const auto& layer : spec["layer"]) count += layer.contains("data") && layer["mark"]["type"] == "rule" ? 1 : 0;
    return count;
  };
  EXPECT_EQ(rules(gbx::tools::html::trend_chart(model, model.trends[0], 0).spec), 0u) << "none detected, none drawn";
  model.trends[0].change_points.push_back({2, 0.5, 0.01});
  const json spec = gbx::tools::html::trend_chart(model, model.trends[0], 0).spec;
  EXPECT_EQ(rules(spec), 1u) << spec.dump();
  EXPECT_NE(spec.dump().find("+50"), std::string::npos) << "the step's size in its tooltip";
}

// The results and the comparison name a benchmark as the console of its bench binary does, so that
// the name selects it with --benchmark_filter; the whole Google Benchmark name stays in the markup.
TEST(HtmlReport, TablesShowTheConsolesName) {
  const std::string name = "saxpy/loop/n:4096/a:2/iterations:1/manual_time";
  std::vector<std::string> files;
  for (const std::string file : {"base", "cand"}) {
    Entry e = report_test::entry(name, "saxpy/n=4096/a=2", "loop", report_test::samples_around(1e-3));
    files.push_back(report_test::write(report_test::gbx_record({e}, "run-" + file, "2026-01-01T00:00:00Z"), file));
  }
  const std::string page = gbx::tools::html_report(gbx::tools::build_report_model(files), {"", ""});
  EXPECT_EQ(occurrences(page, "<td><span class=\"gbx-label\">saxpy/loop/n:4096/a:2</span></td>"), 2u)
      << "one row in each run's results";
  EXPECT_EQ(occurrences(page, " title=\"" + name + "\">saxpy/loop/n:4096/a:2</td>"), 1u) << "the comparison's row";
  EXPECT_EQ(occurrences(page, "saxpy/n=4096/a=2 loop"), 0u) << "no second name";
}

TEST(HtmlReport, BenchmarksThatCouldNotRunGetOneSummaryLinePerReasonAndACollapsedList) {
  Entry measured = report_test::entry("reduce/cpu/n:8", "reduce/n=8", "cpu", report_test::samples_around(1e-3));
  const json record = report_test::with_not_run(
      report_test::gbx_record({measured}, "not-run", "2026-01-01T00:00:00Z"),
      {{"reduce/cub/n:8/iterations:1/manual_time", "reduce/n=8", "cub", "no CUDA device", "no_cuda_device"},
       {"reduce/warp/n:8", "reduce/n=8", "warp", "no CUDA device", "no_cuda_device"},
       {"multi/nccl/n:8", "multi/n=8", "nccl", "needs <two> processes", "unavailable"}});
  const std::string page =
      gbx::tools::html_report(gbx::tools::build_report_model({report_test::write(record, "record")}), {"", ""});
  const auto summary = page.find("<section id=\"summary\">");
  const auto results = page.find("<section id=\"results\">");
  ASSERT_LT(summary, results);
  const std::string head = page.substr(summary, results - summary);
  EXPECT_EQ(occurrences(head, "<p class=\"gbx-not-run-line\">2 CUDA benchmarks not run: no CUDA device "), 1u) << head;
  EXPECT_EQ(occurrences(head, "<p class=\"gbx-not-run-line\">1 benchmark not run: needs &lt;two&gt; processes "), 1u)
      << head;
  EXPECT_NE(head.find("<b>3</b><span>not run on this machine</span>"), std::string::npos) << head;
  const auto list = page.find("<details class=\"gbx-not-run\" id=\"not-run-0\"><summary>3 benchmarks not run");
  ASSERT_NE(list, std::string::npos) << "collapsed: no open attribute";
  EXPECT_GT(list, results);
  const std::string details = page.substr(list, page.find("</details>", list) - list);
  // Each by the console's name: Google Benchmark's, less gbx's constant suffix.
  EXPECT_NE(details.find("<li>reduce/cub/n:8</li>"), std::string::npos) << details;
  EXPECT_NE(details.find("<li>multi/nccl/n:8</li>"), std::string::npos) << details;
  EXPECT_EQ(occurrences(page, "data-skipped=\"true\""), 0u) << "no rows of results for them";
}

TEST(HtmlReport, ARecordFromBeforeNotRunShowsItsSkippedRowsAsBefore) {
  Entry measured = report_test::entry("reduce/cpu/n:8", "reduce/n=8", "cpu", report_test::samples_around(1e-3));
  const json record =
      report_test::with_skipped_entry(report_test::gbx_record({measured}, "old", "2026-01-01T00:00:00Z"),
                                      {"reduce/cub/n:8", "reduce/n=8", "cub", "no CUDA device", ""});
  const std::string page =
      gbx::tools::html_report(gbx::tools::build_report_model({report_test::write(record, "record")}), {"", ""});
  EXPECT_EQ(occurrences(page, "<td colspan=\"12\" class=\"gbx-skipped\">skipped: no CUDA device</td>"), 1u);
  EXPECT_EQ(occurrences(page, "<tr data-name=\"reduce/cub/n:8\" data-skipped=\"true\">"), 1u);
  EXPECT_NE(page.find("<b>1</b><span>not run on this machine</span>"), std::string::npos);
  EXPECT_EQ(occurrences(page, "class=\"gbx-not-run"), 0u) << "no gbx.not_run, no list of it";
}

TEST(HtmlReport, TheFlagsShownAreExplainedBelowTheTableAndOnTheirCells) {
  Entry a = report_test::entry("f/a", "f/n=1", "a", report_test::samples_around(1e-3));
  a.flags = {"drift"};
  Entry b = report_test::entry("f/b", "f/n=1", "b", report_test::samples_around(2e-3));
  const std::string page = gbx::tools::html_report(
      gbx::tools::build_report_model(
          {report_test::write(report_test::gbx_record({a, b}, "flags", "2026-01-01T00:00:00Z"), "record")}),
      {"", ""});
  const auto legend = page.find("<dl class=\"gbx-legend\" id=\"flag-legend\">");
  ASSERT_NE(legend, std::string::npos);
  EXPECT_GT(legend, page.find("</table>", page.find("<section id=\"results\">"))) << "below the results table";
  EXPECT_LT(legend, page.find("</section>", page.find("<section id=\"results\">")));
  const std::string meaning = gbx::html_text(gbx::flag_meaning("drift"));
  ASSERT_FALSE(meaning.empty());
  EXPECT_EQ(occurrences(page, "<dt><code>drift</code></dt><dd>" + meaning + "</dd>"), 1u);
  EXPECT_EQ(occurrences(page, "<dt><code>outliers</code></dt>"), 0u) << "only the flags present";
  EXPECT_EQ(occurrences(page, "<td title=\"drift: " + meaning + ". drift seen\">drift</td>"), 1u)
      << "the cell's tooltip says what the flag means, then the row's message";

  const std::string clean = gbx::tools::html_report(
      gbx::tools::build_report_model(
          {report_test::write(report_test::gbx_record({b}, "clean", "2026-01-01T00:00:00Z"), "clean")}),
      {"", ""});
  EXPECT_EQ(occurrences(clean, "class=\"gbx-legend"), 0u) << "no flags, no legend";
}

}  // namespace

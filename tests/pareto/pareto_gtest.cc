// The Pareto analysis on hand-built cases: which variants are on the frontier, who dominates whom,
// which objectives are used, what happens to failed accuracy, and what the record holds.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/pareto.h"
#include "tests/support/complete_record.h"

namespace gbx {
namespace {

// n samples spread evenly over center * (1 -/+ half_width): the median is the center, and its
// interval is about as wide as the spread.
std::vector<double> cluster(double center, double half_width, std::size_t n = 21) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < n; ++i) {
    const double position = 2.0 * static_cast<double>(i) / static_cast<double>(n - 1) - 1.0;
    samples.push_back(center * (1.0 + half_width * position));
  }
  return samples;
}

ParetoCandidate candidate(const std::string& variant, std::vector<double> samples, std::optional<double> error,
                          std::optional<double> memory) {
  ParetoCandidate c;
  c.name = "bench/" + variant;
  c.variant = variant;
  c.latency_samples = std::move(samples);
  c.error = error;
  c.memory_bytes = memory;
  c.memory_kind = "device_peak_bytes";
  return c;
}

const ParetoVariant& find(const ParetoGroup& group, const std::string& variant) {
  for (const auto& v : group.variants) {
    if (v.variant == variant) return v;
  }
  throw std::runtime_error("no variant " + variant);
}

bool overlap(const ParetoVariant& a, const ParetoVariant& b) {
  return !(a.latency_upper < b.latency_lower) && !(b.latency_upper < a.latency_lower);
}

TEST(Pareto, IdenticalVariantsTieAndBothStayOnTheFrontier) {
  const auto group = analyze_pareto(
      "p", {candidate("a", cluster(1e-3, 0.01), 1e-6, 1000), candidate("b", cluster(1e-3, 0.01), 1e-6, 1000)});
  ASSERT_EQ(group.variants.size(), 2u);
  for (const auto& v : group.variants) {
    EXPECT_TRUE(v.on_frontier) << v.variant;
    EXPECT_FALSE(v.dominated_by) << v.variant;
  }
  EXPECT_EQ(group.objectives, (std::vector<std::string>{"latency", "error", "memory"}));
  EXPECT_TRUE(group.missing.empty());
}

TEST(Pareto, AVariantWorseInEveryObjectiveNamesItsDominator) {
  const auto group = analyze_pareto(
      "p", {candidate("fast", cluster(1e-3, 0.01), 1e-7, 1000), candidate("slow", cluster(2e-3, 0.01), 1e-5, 2000)});
  const auto& fast = find(group, "fast");
  const auto& slow = find(group, "slow");
  EXPECT_TRUE(fast.on_frontier);
  EXPECT_FALSE(slow.on_frontier);
  ASSERT_TRUE(slow.dominated_by);
  EXPECT_EQ(*slow.dominated_by, "bench/fast");
  EXPECT_EQ(fast.frontier_probability, 1.0);
  EXPECT_EQ(slow.frontier_probability, 0.0);
}

TEST(Pareto, OverlappingLatencyIntervalsWithEqualErrorAndMemoryDominateNeither) {
  // Medians 1% apart, samples spread +/-20%: the intervals overlap, so neither is faster.
  const auto group = analyze_pareto(
      "p", {candidate("a", cluster(1.00e-3, 0.2), 1e-6, 1000), candidate("b", cluster(1.01e-3, 0.2), 1e-6, 1000)});
  const auto& a = find(group, "a");
  const auto& b = find(group, "b");
  ASSERT_LT(a.latency_median, b.latency_median);
  ASSERT_TRUE(overlap(a, b));
  EXPECT_TRUE(a.on_frontier);
  EXPECT_TRUE(b.on_frontier);
  EXPECT_FALSE(b.dominated_by);
}

TEST(Pareto, SeparatedLatencyIntervalsWithEqualErrorAndMemoryDominate) {
  // The counterpart of the case above: the same 1% gap with +/-0.1% spread separates.
  const auto group = analyze_pareto(
      "p", {candidate("a", cluster(1.00e-3, 0.001), 1e-6, 1000), candidate("b", cluster(1.01e-3, 0.001), 1e-6, 1000)});
  ASSERT_FALSE(overlap(find(group, "a"), find(group, "b")));
  EXPECT_TRUE(find(group, "a").on_frontier);
  EXPECT_EQ(find(group, "b").dominated_by, std::optional<std::string>("bench/a"));
}

TEST(Pareto, OverlappingLatencyAndBetterErrorDominates) {
  // b is the faster by its median, but not beyond the noise; a is more accurate.
  const auto group = analyze_pareto(
      "p", {candidate("a", cluster(1.01e-3, 0.2), 1e-7, 1000), candidate("b", cluster(1.00e-3, 0.2), 1e-5, 1000)});
  ASSERT_TRUE(overlap(find(group, "a"), find(group, "b")));
  EXPECT_TRUE(find(group, "a").on_frontier);
  EXPECT_FALSE(find(group, "b").on_frontier);
  EXPECT_EQ(find(group, "b").dominated_by, std::optional<std::string>("bench/a"));
  // The resamples see b as the faster about half the time, a trade-off then: the rule drops b, the
  // probability says how often it would be worth keeping (docs/pareto.md).
  EXPECT_GT(find(group, "b").frontier_probability, 0.3);
  EXPECT_LT(find(group, "b").frontier_probability, 0.7);
  EXPECT_EQ(find(group, "a").frontier_probability, 1.0);
}

TEST(Pareto, ATradeOffKeepsBothOnTheFrontier) {
  // tf32-like: clearly faster, clearly less accurate.
  const auto group = analyze_pareto(
      "p", {candidate("fp32", cluster(2e-3, 0.01), 1e-7, 1000), candidate("tf32", cluster(1e-3, 0.01), 1e-4, 1000)});
  EXPECT_TRUE(find(group, "fp32").on_frontier);
  EXPECT_TRUE(find(group, "tf32").on_frontier);
  EXPECT_EQ(find(group, "fp32").frontier_probability, 1.0);
  EXPECT_EQ(find(group, "tf32").frontier_probability, 1.0);
}

TEST(Pareto, AMissingObjectiveIsLeftOutAndReportedNeverInvented) {
  // "unchecked" has no error: error is left out for the whole problem, so "unchecked" is judged on
  // latency and memory only, where "fast" beats it; "fast"'s better error cannot count either.
  const auto group = analyze_pareto("p", {candidate("fast", cluster(1e-3, 0.01), 1e-7, 1000),
                                          candidate("unchecked", cluster(2e-3, 0.01), std::nullopt, 1000)});
  EXPECT_EQ(group.objectives, (std::vector<std::string>{"latency", "memory"}));
  ASSERT_EQ(group.missing.size(), 1u);
  EXPECT_EQ(group.missing[0].objective, "error");
  EXPECT_EQ(group.missing[0].variants, std::vector<std::string>{"bench/unchecked"});
  EXPECT_EQ(find(group, "unchecked").dominated_by, std::optional<std::string>("bench/fast"));
  EXPECT_FALSE(find(group, "unchecked").error);  // not filled in

  const std::string json = pareto_json({group}).dump();
  EXPECT_NE(json.find(R"("missing":[{"objective":"error","variants":["bench/unchecked"]}])"), std::string::npos)
      << json;
}

TEST(Pareto, MissingMemoryIsReportedToo) {
  const auto group = analyze_pareto(
      "p", {candidate("a", cluster(1e-3, 0.01), 1e-7, std::nullopt), candidate("b", cluster(1e-3, 0.01), 1e-7, 10)});
  EXPECT_EQ(group.objectives, (std::vector<std::string>{"latency", "error"}));
  ASSERT_EQ(group.missing.size(), 1u);
  EXPECT_EQ(group.missing[0].objective, "memory");
  EXPECT_EQ(group.missing[0].variants, std::vector<std::string>{"bench/a"});
  // Without memory, b's smaller footprint cannot make it dominate a.
  EXPECT_TRUE(find(group, "a").on_frontier);
}

TEST(Pareto, AVariantWithoutSamplesIsLeftOutAndNamed) {
  const auto group = analyze_pareto("p", {candidate("a", cluster(1e-3, 0.01), 1e-7, 10), candidate("b", {}, 1e-9, 1),
                                          candidate("c", {1e-3, NAN}, 1e-9, 1)});
  ASSERT_EQ(group.variants.size(), 1u);
  ASSERT_EQ(group.missing.size(), 1u);
  EXPECT_EQ(group.missing[0].objective, "latency");
  EXPECT_EQ(group.missing[0].variants, (std::vector<std::string>{"bench/b", "bench/c"}));
  EXPECT_TRUE(group.variants[0].on_frontier);
}

TEST(Pareto, FailedAccuracyIsListedApartAndDominatesNobody) {
  // "broken" is the fastest, smallest and (by its number) most accurate, but failed its check.
  auto broken = candidate("broken", cluster(0.5e-3, 0.01), 1e-9, 10);
  broken.accuracy_failed = true;
  broken.failure = "rel L2 error 0.5 > tolerance 1e-05";
  const auto group = analyze_pareto("p", {candidate("ok", cluster(1e-3, 0.01), 1e-7, 1000), broken});
  ASSERT_EQ(group.variants.size(), 1u);
  EXPECT_EQ(group.variants[0].variant, "ok");
  EXPECT_TRUE(group.variants[0].on_frontier);
  EXPECT_FALSE(group.variants[0].dominated_by);
  EXPECT_EQ(group.variants[0].frontier_probability, 1.0);
  ASSERT_EQ(group.failed.size(), 1u);
  EXPECT_EQ(group.failed[0].variant, "broken");

  const auto json = pareto_json({group});
  ASSERT_EQ(json[0]["failed_accuracy"].size(), 1u);
  EXPECT_EQ(json[0]["failed_accuracy"][0]["reason"], "rel L2 error 0.5 > tolerance 1e-05");
  EXPECT_EQ(json[0]["failed_accuracy"][0]["name"], "bench/broken");

  std::ostringstream out;
  print_pareto(out, {group});
  EXPECT_NE(out.str().find("  x broken"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("accuracy failed: rel L2 error 0.5"), std::string::npos) << out.str();
}

TEST(Pareto, DominatedByPrefersADominatorOnTheFrontier) {
  // c (0.8 ms) and d (0.9 ms, wide) both dominate b (1.0 ms): c by latency, d by error within the
  // noise. d also dominates c, so c is off the frontier: b names d although c is faster.
  std::vector<double> wide = cluster(0.9e-3, 0.5);
  const auto group =
      analyze_pareto("p", {candidate("b", cluster(1.0e-3, 0.001), 3e-6, 1000),
                           candidate("c", cluster(0.8e-3, 0.001), 3e-6, 1000), candidate("d", wide, 2e-6, 1000)});
  const auto& b = find(group, "b");
  const auto& c = find(group, "c");
  const auto& d = find(group, "d");
  ASSERT_TRUE(overlap(d, b));
  ASSERT_TRUE(overlap(d, c));
  ASSERT_FALSE(overlap(c, b));
  EXPECT_TRUE(d.on_frontier);
  EXPECT_EQ(c.dominated_by, std::optional<std::string>("bench/d"));
  EXPECT_EQ(b.dominated_by, std::optional<std::string>("bench/d"));
}

TEST(Pareto, JsonHasTheDocumentedKeysAndNoNonFiniteNumber) {
  ParetoOptions no_resamples;
  no_resamples.resamples = 0;  // no probability: null, not NaN
  auto broken = candidate("broken", cluster(1e-3, 0.01), std::nullopt, std::nullopt);
  broken.accuracy_failed = true;
  const auto group = analyze_pareto(
      "gemm/m=8", {candidate("a", cluster(1e-3, 0.01), 1e-7, std::nullopt), candidate("b", {}, 1e-7, 4), broken},
      no_resamples);
  const nlohmann::json json = pareto_json({group});
  const std::string text = json.dump();
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::accept(text));
  ASSERT_TRUE(json.is_array());
  const auto& g = json[0];
  for (const char* key :
       {"problem", "objectives", "missing", "level", "resamples", "method", "variants", "failed_accuracy"}) {
    EXPECT_TRUE(g.contains(key)) << key;
  }
  EXPECT_EQ(g["problem"], "gemm/m=8");
  EXPECT_EQ(g["resamples"], 0);
  const auto& v = g["variants"][0];
  for (const char* key : {"name", "variant", "latency", "error", "memory_bytes", "memory_kind", "on_frontier",
                          "dominated_by", "frontier_probability"}) {
    EXPECT_TRUE(v.contains(key)) << key;
  }
  for (const char* key : {"median", "lower", "upper"}) EXPECT_TRUE(v["latency"][key].is_number()) << key;
  EXPECT_TRUE(v["memory_bytes"].is_null());
  EXPECT_TRUE(v["dominated_by"].is_null());
  EXPECT_TRUE(v["frontier_probability"].is_null());
  EXPECT_TRUE(g["failed_accuracy"][0]["error"].is_null());
}

TEST(Pareto, ConsoleSummaryMarksTheFrontierAndNotesWhatIsMissing) {
  const auto group = analyze_pareto("reduce/n=8", {candidate("fast", cluster(1e-3, 0.01), 1e-7, 1000),
                                                   candidate("slow", cluster(2e-3, 0.01), std::nullopt, 2000)});
  std::ostringstream out;
  print_pareto(out, {group});
  const std::string text = out.str();
  EXPECT_NE(text.find("Pareto (latency, error, memory) per problem"), std::string::npos) << text;
  EXPECT_NE(text.find("reduce/n=8 (compared on latency, memory)"), std::string::npos) << text;
  EXPECT_NE(text.find("  * fast"), std::string::npos) << text;
  EXPECT_NE(text.find("P(frontier)=1.00"), std::string::npos) << text;
  EXPECT_NE(text.find("dominated by fast"), std::string::npos) << text;
  EXPECT_NE(text.find("note: error not compared: not recorded for slow"), std::string::npos) << text;

  // A problem with a single variant has nothing to trade off and is not shown.
  std::ostringstream single;
  print_pareto(single, {analyze_pareto("p", {candidate("only", cluster(1e-3, 0.01), 1e-7, 1)})});
  EXPECT_EQ(single.str(), "");
}

// A record as the driver writes it, cut down to what the record reader requires and the analysis reads.
nlohmann::json row(const std::string& name, const std::string& problem, const std::string& variant,
                   std::vector<double> samples, double error, bool passed) {
  nlohmann::json accuracy = {{"rel_l2_error", error}, {"tolerance", 1e-5}, {"passed", passed}};
  nlohmann::json flags = nlohmann::json::array();
  if (!passed)
    flags.push_back({{"flag", "accuracy_failed"}, {"value", error}, {"message", "ACCURACY FAILED: too far"}});
  return {{"name", name},
          {"run_type", "iteration"},
          {"real_time", 1.0},
          {"time_unit", "ms"},
          {"gbx",
           {{"problem", problem},
            {"variant", variant},
            {"region", "cpu"},
            {"samples", samples},
            {"accuracy", accuracy},
            {"flags", flags},
            {"memory", {{"device_peak_bytes", nullptr}, {"host_peak_bytes", 4096}}}}}};
}

TEST(ParetoFromRecord, GroupsByProblemPoolsRepetitionsAndSkipsWhatDidNotRun) {
  nlohmann::json record = {
      {"context", nlohmann::json::object()}, {"benchmarks", nlohmann::json::array()}, {"gbx", {{"schema_version", 1}}}};
  auto& rows = record["benchmarks"];
  rows.push_back(row("reduce/a/n:8", "reduce/n=8", "a", cluster(1e-3, 0.01, 11), 1e-7, true));
  rows.push_back(row("gemm/x/m:8", "gemm/m=8", "x", cluster(2e-3, 0.01, 11), 1e-6, true));
  rows.push_back(row("reduce/a/n:8", "reduce/n=8", "a", cluster(1e-3, 0.01, 9), 2e-7, true));  // repetition 2
  rows.push_back(row("reduce/b/n:8", "reduce/n=8", "b", cluster(3e-3, 0.01, 11), 1e-1, false));
  auto skipped = row("reduce/cuda/n:8", "reduce/n=8", "cuda", {}, 0, true);
  skipped["error_occurred"] = true;
  skipped["gbx"]["accuracy"] = nullptr;
  rows.push_back(skipped);
  rows.push_back({{"name", "reduce/a/n:8_median"}, {"run_type", "aggregate"}, {"gbx", {{"problem", "reduce/n=8"}}}});

  // With the keys the schema requires, which the reader checks.
  const nlohmann::json complete = gbx_test::complete_record(record);
  const auto groups = pareto_from_record(read_record(complete, "hand-built", SealRequirement::not_yet_sealed));
  EXPECT_EQ(pareto_json(pareto_from_record(complete)), pareto_json(groups));  // the same through the JSON overload
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].problem, "reduce/n=8");  // first seen first
  EXPECT_EQ(groups[1].problem, "gemm/m=8");
  const ParetoGroup& reduce = groups[0];
  ASSERT_EQ(reduce.variants.size(), 1u);  // a; b failed; cuda and the aggregate did not count
  EXPECT_EQ(reduce.variants[0].name, "reduce/a/n:8");
  EXPECT_EQ(reduce.variants[0].error, 2e-7);  // the worse repetition
  EXPECT_EQ(reduce.variants[0].memory_bytes, 4096.0);
  EXPECT_EQ(reduce.variants[0].memory_kind, "host_peak_bytes");
  ASSERT_EQ(reduce.failed.size(), 1u);
  EXPECT_EQ(reduce.failed[0].name, "reduce/b/n:8");
  EXPECT_EQ(reduce.failed[0].failure, "too far");
  EXPECT_EQ(reduce.objectives, (std::vector<std::string>{"latency", "error", "memory"}));

  // Pooled: the 20 samples of both repetitions, whose median is the shared center.
  std::vector<ParetoCandidate> direct{candidate("a", cluster(1e-3, 0.01, 11), 2e-7, 4096)};
  direct[0].latency_samples.insert(direct[0].latency_samples.end(), rows[2]["gbx"]["samples"].begin(),
                                   rows[2]["gbx"]["samples"].end());
  const auto expected = analyze_pareto("reduce/n=8", direct);
  EXPECT_DOUBLE_EQ(reduce.variants[0].latency_lower, expected.variants[0].latency_lower);
  EXPECT_DOUBLE_EQ(reduce.variants[0].latency_upper, expected.variants[0].latency_upper);
  // ...which differs from the first repetition's alone, so the comparison above tells pooling apart.
  const auto single = analyze_pareto("reduce/n=8", {candidate("a", cluster(1e-3, 0.01, 11), 2e-7, 4096)});
  EXPECT_NE(single.variants[0].latency_lower, expected.variants[0].latency_lower);
}

TEST(ParetoFromRecord, PlainGoogleBenchmarkJsonHasNoGroups) {
  const nlohmann::json plain = {
      {"context", nlohmann::json::object()},
      {"benchmarks", {{{"name", "BM_x"}, {"run_type", "iteration"}, {"real_time", 1.0}, {"time_unit", "ns"}}}}};
  EXPECT_TRUE(pareto_from_record(plain).empty());
  EXPECT_TRUE(pareto_from_record(nlohmann::json::array()).empty());
}

TEST(Pareto, TheResultDependsOnTheDataAndSeedOnly) {
  const std::vector<ParetoCandidate> candidates{candidate("a", cluster(1.00e-3, 0.2), 1e-6, 1000),
                                                candidate("b", cluster(1.02e-3, 0.2), 1e-6, 1000)};
  const auto first = pareto_json({analyze_pareto("p", candidates)});
  const auto again = pareto_json({analyze_pareto("p", candidates)});
  EXPECT_EQ(first, again);
}

// A swept benchmark (the short form): the problem is the tuple of the axes that are not the variant's,
// so two tile sizes are two variants of one problem, and the group says which axes named it.
TEST(ParetoFromRecord, SweptProblemIsTheTupleOfNonVariantAxes) {
  nlohmann::json record = {
      {"context", nlohmann::json::object()}, {"benchmarks", nlohmann::json::array()}, {"gbx", {{"schema_version", 1}}}};
  auto& rows = record["benchmarks"];
  for (const int tile : {16, 32}) {
    auto r = row("sweep/loop/n:8/tile:" + std::to_string(tile), "sweep/n=8", "loop/tile=" + std::to_string(tile),
                 cluster(tile * 1e-4, 0.01, 11), 1e-7, true);
    r["gbx"]["axes"] = {{"n", 8}, {"tile", tile}};
    r["gbx"]["variant_axes"] = {"tile"};
    rows.push_back(r);
  }
  const auto groups =
      pareto_from_record(read_record(gbx_test::complete_record(record), "hand-built", SealRequirement::not_yet_sealed));
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].variants.size(), 2u);
  EXPECT_EQ(groups[0].axes, (nlohmann::json{{"n", 8}}));
  EXPECT_EQ(pareto_json(groups)[0]["axes"], (nlohmann::json{{"n", 8}}));
}

}  // namespace
}  // namespace gbx

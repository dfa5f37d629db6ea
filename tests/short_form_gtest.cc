// The short form and its axes: parsing --gbx_axis, the product and its exclusions, and benchmarks
// registered with GBX_BENCH run in-process through the fixture machinery, their axes in the record
// and on the child-to-parent wire, and --gbx_cache=rotate's copies against the cache.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gbx/gbx.h>

#include "extensions/fixture.h"
#include "model/protocol.h"
#include "tests/support/benchmark_run.h"
#include "writer/json_record.h"
#include "writer/run_record_wire.h"

namespace {

using gbx::Axis;
using gbx::AxisError;
using gbx::AxisValues;

std::vector<std::string> texts(const Axis& axis) {
  std::vector<std::string> out;
  for (const auto& v : axis.values) out.push_back(v.text);
  return out;
}

TEST(Axes, PowerOfTwoRangeStepsTheExponent) {
  Axis n = gbx::int_axis("n", {1});
  gbx::detail::override_axis(n, "2^10:2^16:2");
  EXPECT_EQ(texts(n), (std::vector<std::string>{"1024", "4096", "16384", "65536"}));
  EXPECT_EQ(gbx::pow2_axis("n", 3, 5).values.back().integer, 32);
}

TEST(Axes, ListsAndLinearRanges) {
  Axis n = gbx::pow2_axis("n", 1, 2);
  gbx::detail::override_axis(n, "3,2^4,-2");
  EXPECT_EQ(texts(n), (std::vector<std::string>{"3", "16", "-2"}));
  gbx::detail::override_axis(n, "0:10:5");
  EXPECT_EQ(texts(n), (std::vector<std::string>{"0", "5", "10"}));
  Axis alpha = gbx::float_axis("alpha", {1.0});
  gbx::detail::override_axis(alpha, "0:1:0.25");
  EXPECT_EQ(texts(alpha), (std::vector<std::string>{"0", "0.25", "0.5", "0.75", "1"}));
  gbx::detail::override_axis(alpha, "0.1,2.5");
  EXPECT_DOUBLE_EQ(alpha.values[0].real, 0.1);
  EXPECT_EQ(alpha.values[0].text, "0.1");
  Axis layout = gbx::string_axis("layout", {"row"});
  gbx::detail::override_axis(layout, "row,column");
  EXPECT_EQ(texts(layout), (std::vector<std::string>{"row", "column"}));
}

TEST(Axes, TypeAxisTakesOnlyCompiledTypes) {
  Axis t = gbx::type_axis("T", {"float", "double"});
  gbx::detail::override_axis(t, "double");
  EXPECT_EQ(texts(t), (std::vector<std::string>{"double"}));
  Axis again = gbx::type_axis("T", {"float", "double"});
  try {
    gbx::detail::override_axis(again, "half");
    FAIL() << "half was accepted";
  } catch (const AxisError& e) {
    EXPECT_NE(std::string(e.what()).find("axis 'T'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("float, double"), std::string::npos) << e.what();
  }
}

TEST(Axes, BadValuesNameTheAxis) {
  for (const std::string bad : {"", "2^x", "abc", "2^10:2^4", "1:2:0", "1,,2", "2^63"}) {
    Axis n = gbx::int_axis("size", {1});
    try {
      gbx::detail::override_axis(n, bad);
      FAIL() << "'" << bad << "' was accepted";
    } catch (const AxisError& e) {
      EXPECT_NE(std::string(e.what()).find("axis 'size'"), std::string::npos) << e.what();
    }
  }
  Axis alpha = gbx::float_axis("alpha", {1.0});
  EXPECT_THROW(gbx::detail::override_axis(alpha, "nan"), AxisError);
  EXPECT_THROW(gbx::detail::override_axis(alpha, "1:0:0.5"), AxisError);
  EXPECT_THROW(gbx::detail::split_axis_flag("n"), AxisError);
  EXPECT_THROW(gbx::detail::split_axis_flag("=4"), AxisError);
  EXPECT_EQ(gbx::detail::split_axis_flag("n=2^10:2^12").second, "2^10:2^12");
}

TEST(Axes, ProductLastAxisFastestWithExclusions) {
  const std::vector<Axis> axes = {gbx::int_axis("n", {1, 2}), gbx::string_axis("T", {"float", "double"})};
  const auto all = gbx::detail::axis_product(axes, {});
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1].get_int("n"), 1);
  EXPECT_EQ(all[1].get_string("T"), "double");
  const auto kept = gbx::detail::axis_product(
      axes, {[](const AxisValues& p) { return p.get_int("n") == 2 && p.get_string("T") == "double"; }});
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept.back().get_string("T"), "float");
  EXPECT_THROW(all[0].get_int("T"), AxisError);
  EXPECT_THROW(all[0].get_int("missing"), AxisError);
}

// --- benchmarks in the short form, registered before main() and run in-process ----------------

template <class T>
void scaled(gbx::State& state) {
  const auto n = state.get_int("n");
  auto& x = state.host_array<T>(n);
  auto& y = state.host_array<T>(n);
  state.fill_random(gbx::Span<T>(x));
  state.declare_bytes_per_run(2.0 * static_cast<double>(x.bytes()));
  state.check(y, [&] { return gbx::reference_map(x, [](double v) { return 2.0 * v; }); });
  state.exec([&] {
    for (std::int64_t i = 0; i < n; ++i) y[i] = T(2) * x[i];
    benchmark::DoNotOptimize(y.data);
  });
}
GBX_BENCH_TYPES(scaled, "short/typed", float, double)
    ->int_axis("n", {64, 128})
    ->int_axis("tile", {1, 2})
    ->variant_axes({"tile"})
    ->exclude([](const AxisValues& p) { return p.get_string("T") == "double" && p.get_int("n") == 128; });

void forgets_exec(gbx::State& state) { state.declare_bytes_per_run(1.0); }
GBX_BENCH(forgets_exec, "short/no_exec");

void skips(gbx::State& state) { state.skip("no widget here"); }
GBX_BENCH(skips, "short/skips");

// Small enough to sit in any cache: rotation must still make it read copies whose total exceeds it.
void small_sum(gbx::State& state) {
  auto& x = state.host_array<float>(1024);
  state.fill_random(x);
  state.exec([&] {
    float sum = 0.0f;
    for (float v : x) sum += v;
    benchmark::DoNotOptimize(sum);
  });
}
GBX_BENCH(small_sum, "short/rotated");

// Counts its accuracy checks: the runs that find the output poisoned (NaN), as only the check leaves
// it. `wrong` writes the wrong output, so that its check fails.
template <bool wrong>
struct Counted {
  static int& checks() {
    static int count = 0;
    return count;
  }
  static const float*& output() {  // where the last call's output was, and whether it came zeroed
    static const float* at = nullptr;
    return at;
  }
  static bool& zeroed() {
    static bool was = false;
    return was;
  }
  static void bench(gbx::State& state) {
    auto& x = state.fill_random(state.host_array<float>(256));
    auto& y = state.host_array<float>(256);
    output() = y.data;
    zeroed() = std::all_of(y.begin(), y.end(), [](float v) { return v == 0.0f; });
    state.check(y, [&] { return gbx::reference_map(x, [](double v) { return v + 1.0; }); });
    state.exec([&] {
      if (std::isnan(y[0])) ++checks();
      for (std::size_t i = 0; i < x.size; ++i) y[i] = x[i] + (wrong ? 2.0f : 1.0f);
      benchmark::DoNotOptimize(y.data);
    });
  }
};
GBX_BENCH(Counted<false>::bench, "short/counted")->int_axis("n", {1, 2});
GBX_BENCH(Counted<true>::bench, "short/miscounted");

// Counts the calls of its function and the returns from it.
struct Held {
  static int& calls() {
    static int count = 0;
    return count;
  }
  static int& returns() {
    static int count = 0;
    return count;
  }
  static void bench(gbx::State& state) {
    ++calls();
    auto& x = state.fill_random(state.host_array<float>(64));
    state.exec([&] { benchmark::DoNotOptimize(x.data); });
    ++returns();
  }
};
GBX_BENCH(Held::bench, "short/held")->int_axis("n", {1, 2});

gbx::detail::Protocol quick(gbx::detail::CacheMode cache = gbx::detail::CacheMode::hot) {
  gbx::detail::Protocol p;
  p.warmup_runs = 1;
  p.min_samples = 3;
  p.max_time_seconds = 5.0;
  p.cache = cache;
  return p;
}

TEST(ShortForm, TypedAxesRegisterTheProductLessExclusions) {
  gbx::detail::set_active_protocol(quick());
  const auto run = gbx_test::run_benchmarks("^short/typed/");
  ASSERT_EQ(run.matched, 6u);  // 2 types x 2 n x 2 tiles, less double with n = 128 (2 tiles)
  ASSERT_EQ(run.entries.size(), 6u);
  const gbx::detail::RunRecord& first = *run.entries.front();
  EXPECT_EQ(run.benchmarks[0]["name"].get<std::string>().rfind("short/typed/T:float/n:64/tile:1", 0), 0u);
  EXPECT_EQ(first.problem, "short/T=float/n=64");
  EXPECT_EQ(first.variant, "typed/tile=1");
  ASSERT_TRUE(first.accuracy.has_value());
  EXPECT_TRUE(first.accuracy->passed);
  const nlohmann::json entry = gbx::entry_json(first, false, nullptr);
  EXPECT_EQ(entry["axes"], (nlohmann::json{{"T", "float"}, {"n", 64}, {"tile", 1}}));
  EXPECT_EQ(entry["variant_axes"], nlohmann::json::array({"tile"}));
  // Through the wire, as a --gbx_processes child sends it: the same axes, kinds and variant marks.
  const gbx::detail::RunRecord back = gbx::run_record_from_json(gbx::run_record_json(first));
  EXPECT_EQ(gbx::entry_json(back, false, nullptr)["axes"], entry["axes"]);
  EXPECT_EQ(gbx::entry_json(back, false, nullptr)["variant_axes"], entry["variant_axes"]);
  for (const auto& e : run.entries) EXPECT_FALSE(e->problem == "short/T=double/n=128") << e->problem;
}

TEST(ShortForm, ReturningWithoutExecFails) {
  gbx::detail::set_active_protocol(quick());
  const auto run = gbx_test::run_benchmarks("^short/no_exec");
  ASSERT_EQ(run.entries.size(), 1u);
  EXPECT_NE(run.entries[0]->error.find("state.exec()"), std::string::npos) << run.entries[0]->error;
}

TEST(ShortForm, SkipIsNotAFailure) {
  gbx::detail::set_active_protocol(quick());
  const auto run = gbx_test::run_benchmarks("^short/skips");
  ASSERT_EQ(run.entries.size(), 1u);
  EXPECT_TRUE(run.entries[0]->skipped);
}

TEST(ShortForm, RotationCopiesExceedTheCache) {
  gbx::detail::set_active_protocol(quick(gbx::detail::CacheMode::rotate));
  const auto run = gbx_test::run_benchmarks("^short/rotated");
  ASSERT_EQ(run.entries.size(), 1u);
  const gbx::detail::Measurement& m = run.entries[0]->measurement;
  EXPECT_EQ(m.cache, gbx::detail::CacheMode::rotate);
  EXPECT_DOUBLE_EQ(m.rotation_bytes_per_run, 4096.0);
  ASSERT_GT(m.rotation_cache_bytes, 0.0);
  // Between two runs on one copy, the others' bytes are at least twice the cache.
  EXPECT_GE(static_cast<double>(m.rotation_copies - 1) * m.rotation_bytes_per_run, 2.0 * m.rotation_cache_bytes);
  EXPECT_EQ(m.flushes, 0);  // batched and cold without a flush
  const nlohmann::json entry = gbx::entry_json(*run.entries[0], false, nullptr);
  EXPECT_EQ(entry["measurement"]["cache"], "rotate");
  EXPECT_EQ(entry["measurement"]["rotation"]["copies"], m.rotation_copies);
}

// A worker's blocks (keep_setup_between_calls): the short form is set up again each call, but a call
// with the same arguments as the one before keeps that call's passed check instead of running it.
// Under rotation a short form is not held (its copies are made per call): it is set up again.
TEST(ShortForm, KeepModeChecksARepeatedCallOnceAndKeepsItsAccuracy) {
  gbx::detail::set_active_protocol(quick(gbx::detail::CacheMode::rotate));
  gbx::FixtureBase::keep_setup_between_calls(true);
  int before = Counted<false>::checks();
  const auto first = gbx_test::run_benchmarks("^short/counted/n:1/");
  EXPECT_EQ(Counted<false>::checks() - before, 1);
  const float* first_output = Counted<false>::output();
  before = Counted<false>::checks();
  const auto again = gbx_test::run_benchmarks("^short/counted/n:1/");
  EXPECT_EQ(Counted<false>::checks() - before, 0);
  EXPECT_EQ(Counted<false>::output(), first_output);  // the first call's array, taken again
  EXPECT_TRUE(Counted<false>::zeroed());              // and zeroed, as a new one would be
  ASSERT_EQ(again.entries.size(), 1u);
  ASSERT_TRUE(again.entries[0]->accuracy.has_value());
  EXPECT_TRUE(again.entries[0]->accuracy->passed);
  EXPECT_EQ(again.entries[0]->accuracy->rel_l2_error, first.entries[0]->accuracy->rel_l2_error);
  before = Counted<false>::checks();
  gbx_test::run_benchmarks("^short/counted/n:2/");  // other arguments: checked
  EXPECT_EQ(Counted<false>::checks() - before, 1);
  gbx::FixtureBase::keep_setup_between_calls(false);
  before = Counted<false>::checks();
  gbx_test::run_benchmarks("^short/counted/n:2/");  // without keep, every call checks
  EXPECT_EQ(Counted<false>::checks() - before, 1);
}

TEST(ShortForm, KeepModeHoldsTheFunctionBetweenCallsWithTheSameArguments) {
  gbx::detail::set_active_protocol(quick());
  gbx::FixtureBase::keep_setup_between_calls(true);
  const int calls = Held::calls();
  const int returns = Held::returns();
  for (int block = 0; block < 3; ++block) {
    const auto run = gbx_test::run_benchmarks("^short/held/n:1/");
    ASSERT_EQ(run.entries.size(), 1u);
    EXPECT_TRUE(run.entries[0]->error.empty()) << run.entries[0]->error;
    EXPECT_GE(run.entries[0]->measurement.samples.size(), 3u);
  }
  EXPECT_EQ(Held::calls() - calls, 1);  // measured three times, inside one call of the function
  EXPECT_EQ(Held::returns() - returns, 0);
  gbx_test::run_benchmarks("^short/held/n:2/");  // other arguments: the held one returns first
  EXPECT_EQ(Held::calls() - calls, 2);
  EXPECT_EQ(Held::returns() - returns, 1);
  gbx::FixtureBase::keep_setup_between_calls(false);  // and turning keep off lets the last go
  EXPECT_EQ(Held::returns() - returns, 2);
  gbx_test::run_benchmarks("^short/held/n:2/");
  gbx_test::run_benchmarks("^short/held/n:2/");
  EXPECT_EQ(Held::calls() - calls, 4);  // without keep, every call is a call
  EXPECT_EQ(Held::returns() - returns, 4);
}

// A held function keeps no failed check: it returns, and the next call checks again.
TEST(ShortForm, KeepModeChecksAFailedCheckAgain) {
  gbx::detail::set_active_protocol(quick());
  gbx::FixtureBase::keep_setup_between_calls(true);
  const int before = Counted<true>::checks();
  gbx_test::run_benchmarks("^short/miscounted");
  const auto again = gbx_test::run_benchmarks("^short/miscounted");
  gbx::FixtureBase::keep_setup_between_calls(false);
  EXPECT_EQ(Counted<true>::checks() - before, 2);
  ASSERT_EQ(again.entries.size(), 1u);
  ASSERT_TRUE(again.entries[0]->accuracy.has_value());
  EXPECT_FALSE(again.entries[0]->accuracy->passed);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  benchmark::Initialize(&argc, argv);
  gbx::detail::register_short_benchmarks({});
  return RUN_ALL_TESTS();
}

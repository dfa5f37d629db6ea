// The short form and its axes: parsing --gbx_axis, the product and its exclusions, and benchmarks
// registered with GBX_BENCH run in-process through the fixture machinery, their axes in the record
// and on the child-to-parent wire, and --gbx_cache=rotate's copies against the cache.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gbx/gbx.h>

#include "analysis/run_analysis.h"
#include "extensions/fixture.h"
#include "extensions/setup_keeper.h"
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
  Axis n = gbx::int_axis("n", {2, 4});
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

// A value the benchmark cannot run is refused with the axis, the value and the fault, before
// anything runs: a power-of-two axis counts elements (at least 0, at most the memory at a byte each).
TEST(Axes, ValuesOutsideTheRangeAreRefused) {
  const double memory = 16.0 * 1024 * 1024 * 1024;
  const auto refusal = [&](Axis axis, const std::string& text) -> std::string {
    try {
      gbx::detail::override_axis(axis, text, memory);
    } catch (const AxisError& e) {
      return e.what();
    }
    return "accepted";
  };
  const Axis n = gbx::pow2_axis("n", 16, 20, 4);
  const std::string negative = refusal(n, "-1");
  EXPECT_NE(negative.find("value -1 for axis 'n'"), std::string::npos) << negative;
  EXPECT_NE(negative.find("minimum 0"), std::string::npos) << negative;
  EXPECT_NE(refusal(n, "4,-8,16").find("value -8"), std::string::npos);
  EXPECT_NE(refusal(n, "-4:4:4").find("value -4"), std::string::npos);
  EXPECT_EQ(refusal(n, "0"), "accepted");  // an empty array: the benchmark may run it
  EXPECT_EQ(refusal(n, "2^34"), "accepted");
  const std::string huge = refusal(n, "2^35");  // 32 Gi elements of at least one byte: more than 16 GiB
  EXPECT_NE(huge.find("too large to allocate"), std::string::npos) << huge;
  EXPECT_NE(huge.find("34359738368"), std::string::npos) << huge;
  Axis offset = gbx::int_axis("offset", {0});
  EXPECT_EQ(refusal(offset, "-5,2^40"), "accepted");  // an integer axis is no size unless declared
  offset.minimum = -2.0;
  offset.maximum = 8.0;
  EXPECT_NE(refusal(offset, "-3").find("below its minimum -2"), std::string::npos);
  EXPECT_NE(refusal(offset, "0,9").find("above its maximum 8"), std::string::npos);
  EXPECT_EQ(refusal(offset, "-2:8:5"), "accepted");
  Axis alpha = gbx::float_axis("alpha", {0.5});
  alpha.minimum = 0.0;
  alpha.maximum = 1.0;
  EXPECT_NE(refusal(alpha, "0.5,1.5").find("value 1.5 for axis 'alpha' is above its maximum 1"), std::string::npos);
}

TEST(Axes, DeclaredRangesMustHoldTheDeclaredValues) {
  gbx::ShortBenchmark b("range/check", "", {});
  b.int_axis("tile", {8, 16})->string_axis("layout", {"row"});
  EXPECT_NO_THROW(b.axis_range("tile", 1, 64));
  EXPECT_EQ(b.axes()[0].minimum, 1.0);
  EXPECT_EQ(b.axes()[0].maximum, 64.0);
  EXPECT_THROW(b.axis_range("tile", 10, 64), std::invalid_argument);  // 8 is declared
  EXPECT_THROW(b.axis_range("tile", 4, 2), std::invalid_argument);
  EXPECT_THROW(b.axis_range("layout", 0, 1), std::invalid_argument);
  EXPECT_THROW(b.axis_range("missing", 0, 1), std::invalid_argument);
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
GBX_BENCH(skips, "short/not_here")->int_axis("n", {8, 16});

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

// Arrays of a size the benchmark computed: negative, past the address space, past the memory.
void sized(gbx::State& state) {
  auto& x = state.host_array<float>(state.get_int("n"));
  state.exec([&] { benchmark::DoNotOptimize(x.data); });
}
GBX_BENCH(sized, "short/sized")->int_axis("n", {-1, std::int64_t{1} << 62, std::int64_t{1} << 40});

// y = a x + y in place: the kernel reads its output. Declared with inout(), its check runs on the
// original values and passes; undeclared, it reads the NaN its output was poisoned with. saw_original:
// whether the reference, when computed, found y holding the values it was filled with.
template <bool declared>
struct InPlace {
  static bool& saw_original() {
    static bool saw = false;
    return saw;
  }
  static void saxpy(gbx::State& state) {
    const auto n = static_cast<std::size_t>(state.get_int("n"));
    auto& x = state.fill_random(state.host_array<float>(n));
    auto& y = state.fill_random(state.host_array<float>(n));
    if (declared) state.inout(y);
    const std::vector<float> original(y.begin(), y.end());
    saw_original() = false;
    state.check(y, [&] {
      saw_original() = std::equal(y.begin(), y.end(), original.begin());
      std::vector<double> reference(n);
      for (std::size_t i = 0; i < n; ++i) reference[i] = 2.0 * static_cast<double>(x[i]) + static_cast<double>(y[i]);
      return reference;
    });
    state.exec([&] {
      for (std::size_t i = 0; i < n; ++i) y[i] = 2.0f * x[i] + y[i];
      benchmark::DoNotOptimize(y.data);
    });
  }
};
// Sizes apart: no two runs share a cached reference (one per problem and seed).
GBX_BENCH(InPlace<true>::saxpy, "inplace/declared")->int_axis("n", {4096, 8192});
GBX_BENCH(InPlace<false>::saxpy, "inplace/undeclared")->int_axis("n", {2048});

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

// Not run here: each is named with its axes, as a measured row would be, in gbx.not_run too.
TEST(ShortForm, ASkippedBenchmarkIsNamedWithItsAxes) {
  gbx::detail::set_active_protocol(quick());
  const auto run = gbx_test::run_benchmarks("^short/not_here/");
  ASSERT_EQ(run.entries.size(), 2u);
  const std::vector<std::string> problems = {"short/n=8", "short/n=16"};
  for (std::size_t i = 0; i < problems.size(); ++i) {
    ASSERT_TRUE(run.entries[i].has_value());
    EXPECT_TRUE(run.entries[i]->skipped);
    EXPECT_EQ(run.entries[i]->problem, problems[i]);
    EXPECT_EQ(gbx::not_run_json("short/not_here/n:8", *run.entries[i])["problem"], problems[i]);
  }
}

TEST(ShortForm, ArraySizesComputedInsideFailTheBenchmarkWithAMessage) {
  gbx::detail::set_active_protocol(quick());
  const auto run = gbx_test::run_benchmarks("^short/sized/");
  ASSERT_EQ(run.entries.size(), 3u);
  const std::vector<std::string> expected = {"host_array(-1): a negative count", "exceed the address space",
                                             "exceed this machine's memory"};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_TRUE(run.entries[i].has_value());
    EXPECT_NE(run.entries[i]->error.find(expected[i]), std::string::npos) << run.entries[i]->error;
  }
  EXPECT_THROW(gbx::detail::array_bytes("device_array", static_cast<std::size_t>(-3), 4), std::length_error);
  EXPECT_EQ(gbx::detail::array_bytes("host_array", std::size_t{5}, 8), 40u);
}

// In place: restored, not poisoned, before the checked run, and checked against a reference computed
// from the original values, hot and under rotation (whose copies the runs modify too).
TEST(ShortForm, InPlaceOutputDeclaredWithInoutPassesItsCheck) {
  for (const auto cache : {gbx::detail::CacheMode::hot, gbx::detail::CacheMode::rotate}) {
    gbx::detail::set_active_protocol(quick(cache));
    const bool hot = cache == gbx::detail::CacheMode::hot;
    const auto run = gbx_test::run_benchmarks(hot ? "^inplace/declared/n:4096/" : "^inplace/declared/n:8192/");
    ASSERT_EQ(run.entries.size(), 1u);
    const gbx::detail::RunRecord& r = *run.entries[0];
    EXPECT_TRUE(r.error.empty()) << r.error;
    ASSERT_TRUE(r.accuracy.has_value());
    EXPECT_TRUE(r.accuracy->passed) << r.accuracy->rel_l2_error << " " << r.accuracy->nan_count;
    EXPECT_EQ(r.accuracy->nan_count, 0);
    EXPECT_TRUE(r.accuracy->note.empty()) << r.accuracy->note;
    EXPECT_TRUE(InPlace<true>::saw_original());
  }
}

// Undeclared, it fails with every output NaN, and the message says why and what to do, through the
// child-to-parent wire too.
TEST(ShortForm, InPlaceOutputNotDeclaredFailsSayingWhy) {
  gbx::detail::set_active_protocol(quick());
  const auto run = gbx_test::run_benchmarks("^inplace/undeclared/");
  ASSERT_EQ(run.entries.size(), 1u);
  const gbx::detail::RunRecord back = gbx::run_record_from_json(gbx::run_record_json(*run.entries[0]));
  ASSERT_TRUE(back.accuracy.has_value());
  EXPECT_FALSE(back.accuracy->passed);
  EXPECT_EQ(back.accuracy->nan_count, 2048);
  std::string message;
  for (const auto& flag : gbx::analyze_run(back).flags) {
    if (flag.name == "accuracy_failed") message = flag.message;
  }
  EXPECT_NE(message.find("2048 NaN outputs"), std::string::npos) << message;
  EXPECT_NE(message.find("may have read its output before writing it"), std::string::npos) << message;
  EXPECT_NE(message.find("state.inout(y)"), std::string::npos) << message;
}

// --gbx_axis for an axis a selected benchmark lacks: it runs as registered, and says so once.
TEST(ShortForm, AnAxisFlagABenchmarkLacksIsWarnedAboutOnce) {
  gbx::detail::set_active_protocol(quick());
  gbx::detail::set_axis_flags({"n=2^4"});
  testing::internal::CaptureStderr();
  gbx_test::run_benchmarks("^short/rotated");
  gbx_test::run_benchmarks("^short/rotated");
  gbx_test::run_benchmarks("^short/counted/n:1/");  // has the axis: nothing to say
  gbx::detail::warn_missing_axes("reduce/naive", {}, true);
  const std::string err = testing::internal::GetCapturedStderr();
  gbx::detail::set_axis_flags({});
  const std::string warning =
      "gbx: --gbx_axis=n=2^4: short/rotated has no axis 'n' (its axes: none); it runs as registered";
  EXPECT_NE(err.find(warning), std::string::npos) << err;
  EXPECT_EQ(err.find(warning), err.rfind(warning)) << err;  // once
  EXPECT_EQ(err.find("short/counted"), std::string::npos) << err;
  EXPECT_NE(err.find("reduce/naive is a class-form benchmark, which has no axes"), std::string::npos) << err;
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

// A worker's blocks (a SetupKeeper): the short form is set up again each call, but a call
// with the same arguments as the one before keeps that call's passed check instead of running it.
// Under rotation a short form is not held (its copies are made per call): it is set up again.
TEST(ShortForm, KeepModeChecksARepeatedCallOnceAndKeepsItsAccuracy) {
  gbx::detail::set_active_protocol(quick(gbx::detail::CacheMode::rotate));
  auto keeper = std::make_unique<gbx::detail::SetupKeeper>();
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
  keeper.reset();
  before = Counted<false>::checks();
  gbx_test::run_benchmarks("^short/counted/n:2/");  // without keep, every call checks
  EXPECT_EQ(Counted<false>::checks() - before, 1);
}

TEST(ShortForm, KeepModeHoldsTheFunctionBetweenCallsWithTheSameArguments) {
  gbx::detail::set_active_protocol(quick());
  auto keeper = std::make_unique<gbx::detail::SetupKeeper>();
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
  keeper.reset();  // and turning keep off lets the last go
  EXPECT_EQ(Held::returns() - returns, 2);
  gbx_test::run_benchmarks("^short/held/n:2/");
  gbx_test::run_benchmarks("^short/held/n:2/");
  EXPECT_EQ(Held::calls() - calls, 4);  // without keep, every call is a call
  EXPECT_EQ(Held::returns() - returns, 4);
}

// A held function keeps no failed check: it returns, and the next call checks again.
TEST(ShortForm, KeepModeChecksAFailedCheckAgain) {
  gbx::detail::set_active_protocol(quick());
  auto keeper = std::make_unique<gbx::detail::SetupKeeper>();
  const int before = Counted<true>::checks();
  gbx_test::run_benchmarks("^short/miscounted");
  const auto again = gbx_test::run_benchmarks("^short/miscounted");
  keeper.reset();
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

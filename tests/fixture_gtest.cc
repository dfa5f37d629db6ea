// FixtureBase's failure handling, run in-process through Google Benchmark: an exception becomes
// that benchmark's error and the run goes on; Unavailable becomes a skip, not a failure.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <csignal>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "extensions/fixture.h"
#include "extensions/setup_keeper.h"
#include "model/interrupt.h"
#include "model/protocol.h"
#include "stats/statistics.h"
#include "tests/support/benchmark_run.h"
#include "tests/support/simulated_fixture.h"
#include "tests/support/simulated_timer.h"

namespace {

constexpr std::int64_t kSamples = 4;

// What each fixture's hooks saw, so the tests can tell which stages ran.
struct Calls {
  int acquire = 0;
  int setup = 0;
  int teardown = 0;
  int release = 0;
};

enum class Fault { none, acquire_unavailable, acquire_error, setup, run, teardown, non_standard, interrupt_in_run };

template <Fault fault>
class Faulty : public gbx_test::SimulatedCpuFixture {
 public:
  static Calls& calls() {
    static Calls c;
    return c;
  }

 protected:
  gbx_test::SimulatedTimer& simulated() override { return sim_; }

  void acquire() override {
    ++calls().acquire;
    if (fault == Fault::acquire_unavailable) throw gbx::Unavailable("no widget here");
    if (fault == Fault::acquire_error) throw std::runtime_error("acquire exploded");
  }
  void release() noexcept override {
    ++calls().release;
    SimulatedCpuFixture::release();
  }
  void setup(const benchmark::State&) override {
    ++calls().setup;
    runs_this_call_ = 0;
    declare_problem("faulty/declared");
    if (fault == Fault::setup) throw std::runtime_error("setup exploded");
    if (fault == Fault::non_standard) throw 7;
  }
  void teardown() override {
    ++calls().teardown;
    if (fault == Fault::teardown) throw std::runtime_error("teardown exploded");
  }
  void run() override {
    if (fault == Fault::run) throw std::runtime_error("run exploded");
    // As if the user pressed Ctrl-C during the third run of a call.
    if (fault == Fault::interrupt_in_run && ++runs_this_call_ == 3) std::raise(SIGINT);
    SimulatedCpuFixture::run();
  }

 private:
  gbx_test::SimulatedTimer sim_ = gbx_test::SimulatedTimer::constant(1e-3);
  int runs_this_call_ = 0;
};

using Healthy = Faulty<Fault::none>;

// Runs whose times spread widely (lognormal, sigma 0.5): 20 samples leave the median's 95% interval
// far wider than 2% of it.
class Noisy : public gbx_test::SimulatedCpuFixture {
 protected:
  gbx_test::SimulatedTimer& simulated() override { return sim_; }
  void setup(const benchmark::State&) override { declare_problem("noisy"); }

 private:
  gbx_test::SimulatedTimer sim_ = gbx_test::SimulatedTimer::lognormal(1e-3, 0.5, 7);
};

// Registered in this order, so that a healthy benchmark runs after every faulty one.
GBX_BENCHMARK(Faulty<Fault::setup>, "fixture", "setup_throws")->Arg(3);
GBX_BENCHMARK(Faulty<Fault::run>, "fixture", "run_throws")->Arg(3);
GBX_BENCHMARK(Faulty<Fault::teardown>, "fixture", "teardown_throws")->Arg(3);
GBX_BENCHMARK(Faulty<Fault::non_standard>, "fixture", "throws_int")->Arg(3);
GBX_BENCHMARK(Faulty<Fault::acquire_error>, "fixture", "acquire_throws")->Arg(3);
GBX_BENCHMARK(Faulty<Fault::acquire_unavailable>, "fixture", "unavailable")->Arg(3)->Arg(5);
GBX_BENCHMARK(Faulty<Fault::interrupt_in_run>, "fixture", "interrupted")->Arg(3);
GBX_BENCHMARK(Healthy, "fixture", "healthy")->Arg(3);
GBX_BENCHMARK(Noisy, "fixture", "noisy")->Arg(3);

// A healthy fixture with an accuracy check that counts its calls: a held setup skips the check.
class Checked : public gbx_test::SimulatedCpuFixture {
 public:
  static int& checks() {
    static int c = 0;
    return c;
  }
  static int& setups() {
    static int c = 0;
    return c;
  }

 protected:
  gbx_test::SimulatedTimer& simulated() override { return sim_; }
  void setup(const benchmark::State&) override {
    ++setups();
    declare_problem("checked");
    declare_accuracy("exact", 0.0);
  }
  void poison_outputs() override {}
  gbx::Accuracy check_output() override {
    ++checks();
    return gbx::Accuracy{};
  }

 private:
  gbx_test::SimulatedTimer sim_ = gbx_test::SimulatedTimer::constant(1e-3);
};
GBX_BENCHMARK(Checked, "fixture", "checked")->Arg(3)->Arg(5);

class FixtureFailures : public ::testing::Test {
 protected:
  void SetUp() override {
    gbx::detail::Protocol p;
    p.warmup_runs = 2;
    p.min_samples = kSamples;
    p.max_samples = kSamples;
    gbx::detail::set_active_protocol(p);
  }
  void TearDown() override {
    // Global state some tests change: leave it as the next test expects.
    gbx::clear_interrupt();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
  }

  // The index of the one iteration run whose name starts with prefix; -1 if none or several.
  static int find(const gbx_test::BenchmarkRun& run, const std::string& prefix) {
    int found = -1;
    for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
      const std::string name = run.benchmarks[i].at("name");
      if (name.rfind(prefix, 0) != 0) continue;
      if (found >= 0) return -1;
      found = static_cast<int>(i);
    }
    return found;
  }
};

TEST_F(FixtureFailures, SetupExceptionBecomesAnErrorAndTheRunGoesOn) {
  const Calls before = Faulty<Fault::setup>::calls();
  const auto run = gbx_test::run_benchmarks("^fixture/(setup_throws|healthy)/");
  ASSERT_EQ(run.matched, 2u);
  const int bad = find(run, "fixture/setup_throws/");
  ASSERT_GE(bad, 0);
  const auto& b = run.benchmarks[static_cast<std::size_t>(bad)];
  EXPECT_EQ(b.at("error_occurred"), true);
  EXPECT_EQ(b.at("error_message"), "setup exploded");
  const auto& entry = run.entries[static_cast<std::size_t>(bad)];
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->error, "setup exploded");
  EXPECT_FALSE(entry->skipped);
  EXPECT_TRUE(entry->measurement.samples.empty());
  EXPECT_TRUE(run.any_failed);
  // Set up never completed: no teardown; acquired: released.
  const Calls& after = Faulty<Fault::setup>::calls();
  EXPECT_EQ(after.setup - before.setup, 1);
  EXPECT_EQ(after.teardown - before.teardown, 0);
  EXPECT_EQ(after.release - before.release, 1);

  const int good = find(run, "fixture/healthy/");
  ASSERT_GE(good, 0);
  EXPECT_FALSE(run.benchmarks[static_cast<std::size_t>(good)].value("error_occurred", false));
  ASSERT_TRUE(run.entries[static_cast<std::size_t>(good)].has_value());
  EXPECT_EQ(run.entries[static_cast<std::size_t>(good)]->measurement.samples.size(),
            static_cast<std::size_t>(kSamples));
}

TEST_F(FixtureFailures, RunExceptionBecomesAnErrorAfterTeardown) {
  const Calls before = Faulty<Fault::run>::calls();
  const auto run = gbx_test::run_benchmarks("^fixture/(run_throws|healthy)/");
  ASSERT_EQ(run.matched, 2u);
  const int bad = find(run, "fixture/run_throws/");
  ASSERT_GE(bad, 0);
  EXPECT_EQ(run.benchmarks[static_cast<std::size_t>(bad)].at("error_occurred"), true);
  EXPECT_EQ(run.benchmarks[static_cast<std::size_t>(bad)].at("error_message"), "run exploded");
  EXPECT_EQ(run.benchmarks[static_cast<std::size_t>(bad)].at("label"), "faulty/declared");
  EXPECT_FALSE(run.entries[static_cast<std::size_t>(bad)]->skipped);
  EXPECT_TRUE(run.any_failed);
  const Calls& after = Faulty<Fault::run>::calls();
  EXPECT_EQ(after.teardown - before.teardown, 1);
  EXPECT_EQ(after.release - before.release, 1);
  const int good = find(run, "fixture/healthy/");
  ASSERT_GE(good, 0);
  EXPECT_FALSE(run.benchmarks[static_cast<std::size_t>(good)].value("error_occurred", false));
}

TEST_F(FixtureFailures, TeardownExceptionBecomesAnError) {
  const auto run = gbx_test::run_benchmarks("^fixture/teardown_throws/");
  ASSERT_EQ(run.matched, 1u);
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_EQ(run.benchmarks[0].at("error_occurred"), true);
  EXPECT_EQ(run.benchmarks[0].at("error_message"), "teardown: teardown exploded");
  EXPECT_TRUE(run.any_failed);
}

TEST_F(FixtureFailures, NonStandardExceptionBecomesAnError) {
  const auto run = gbx_test::run_benchmarks("^fixture/throws_int/");
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_EQ(run.benchmarks[0].at("error_occurred"), true);
  EXPECT_EQ(run.benchmarks[0].at("error_message"), "unknown exception");
  EXPECT_TRUE(run.any_failed);
}

TEST_F(FixtureFailures, AcquireErrorIsAFailureNotASkip) {
  const Calls before = Faulty<Fault::acquire_error>::calls();
  const auto run = gbx_test::run_benchmarks("^fixture/acquire_throws/");
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_EQ(run.benchmarks[0].at("error_message"), "acquire exploded");
  EXPECT_FALSE(run.entries[0]->skipped);
  EXPECT_TRUE(run.any_failed);
  const Calls& after = Faulty<Fault::acquire_error>::calls();
  EXPECT_EQ(after.setup - before.setup, 0);
  EXPECT_EQ(after.release - before.release, 0);  // never acquired: nothing to release
}

TEST_F(FixtureFailures, UnavailableIsASkip) {
  const Calls before = Faulty<Fault::acquire_unavailable>::calls();
  const auto run = gbx_test::run_benchmarks("^fixture/(unavailable|healthy)/");
  ASSERT_EQ(run.matched, 3u);
  int skipped = 0;
  for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
    const auto& b = run.benchmarks[i];
    const std::string name = b.at("name");
    if (name.rfind("fixture/unavailable/", 0) != 0) continue;
    ++skipped;
    EXPECT_EQ(b.at("error_occurred"), true) << name;
    const std::string message = b.at("error_message");
    EXPECT_EQ(message.rfind("skipped: ", 0), 0u) << message;
    EXPECT_NE(message.find("no widget here"), std::string::npos) << message;
    ASSERT_TRUE(run.entries[i].has_value());
    EXPECT_TRUE(run.entries[i]->skipped);
    EXPECT_EQ(run.entries[i]->error, message);
    EXPECT_TRUE(run.entries[i]->measurement.samples.empty());
    // setup() never ran, so the problem is named by the family and the arguments.
    const std::string arg = std::to_string(run.entries[i]->args.at(0));
    EXPECT_EQ(run.entries[i]->problem, "fixture/" + arg);
    EXPECT_EQ(b.at("label"), "fixture/" + arg);
  }
  EXPECT_EQ(skipped, 2);
  // A skip is not a failure: the driver exits 0 for it.
  EXPECT_FALSE(run.any_failed);
  const Calls& after = Faulty<Fault::acquire_unavailable>::calls();
  EXPECT_EQ(after.acquire - before.acquire, 2);
  EXPECT_EQ(after.setup - before.setup, 0);
  EXPECT_EQ(after.release - before.release, 0);
}

TEST_F(FixtureFailures, HealthyFixtureStagesRunOncePerCall) {
  const Calls before = Healthy::calls();
  const auto run = gbx_test::run_benchmarks("^fixture/healthy/");
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_FALSE(run.any_failed);
  EXPECT_EQ(run.benchmarks[0].at("label"), "faulty/declared");
  const Calls& after = Healthy::calls();
  EXPECT_EQ(after.acquire - before.acquire, 1);
  EXPECT_EQ(after.setup - before.setup, 1);
  EXPECT_EQ(after.teardown - before.teardown, 1);
  EXPECT_EQ(after.release - before.release, 1);
}

// --- a worker's held setup (a SetupKeeper) ------------------------------------------------

TEST_F(FixtureFailures, AHeldSetupServesTheSameBenchmarkAgainAndAnotherTearsItDown) {
  const Calls before = Healthy::calls();
  auto keeper = std::make_unique<gbx::detail::SetupKeeper>();
  const auto first = gbx_test::run_benchmarks("^fixture/healthy/");
  const auto second = gbx_test::run_benchmarks("^fixture/healthy/");
  const Calls held = Healthy::calls();
  EXPECT_EQ(held.setup - before.setup, 1);
  EXPECT_EQ(held.teardown - before.teardown, 0);
  EXPECT_EQ(held.release - before.release, 0);
  ASSERT_EQ(second.entries.size(), 1u);
  ASSERT_TRUE(second.entries[0].has_value());
  EXPECT_EQ(second.entries[0]->problem, "faulty/declared");  // the first call's declarations
  EXPECT_EQ(second.entries[0]->measurement.samples.size(), static_cast<std::size_t>(kSamples));
  EXPECT_FALSE(second.any_failed);
  gbx_test::run_benchmarks("^fixture/noisy/");  // another benchmark: the held one goes first
  const Calls after = Healthy::calls();
  EXPECT_EQ(after.teardown - before.teardown, 1);
  EXPECT_EQ(after.release - before.release, 1);
  keeper.reset();
}

TEST_F(FixtureFailures, AHeldSetupSkipsTheAccuracyCheckAndOtherArgumentsSetUpAfresh) {
  const int setups = Checked::setups();
  const int checks = Checked::checks();
  auto keeper = std::make_unique<gbx::detail::SetupKeeper>();
  gbx_test::run_benchmarks("^fixture/checked/3/");
  const auto again = gbx_test::run_benchmarks("^fixture/checked/3/");
  EXPECT_EQ(Checked::setups() - setups, 1);
  EXPECT_EQ(Checked::checks() - checks, 1);
  ASSERT_EQ(again.entries.size(), 1u);
  ASSERT_TRUE(again.entries[0].has_value());
  ASSERT_TRUE(again.entries[0]->accuracy.has_value());  // the first call's check, kept
  gbx_test::run_benchmarks("^fixture/checked/5/");
  EXPECT_EQ(Checked::setups() - setups, 2);
  EXPECT_EQ(Checked::checks() - checks, 2);
  keeper.reset();
  // Without keep, every call sets up and checks again.
  gbx_test::run_benchmarks("^fixture/checked/5/");
  EXPECT_EQ(Checked::setups() - setups, 3);
  EXPECT_EQ(Checked::checks() - checks, 3);
}

// --- adaptive stopping -------------------------------------------------------------------

TEST_F(FixtureFailures, AdaptiveStoppingStopsWhenTheTargetIsMet) {
  gbx::detail::Protocol p = gbx::detail::active_protocol();
  p.min_samples = 4;
  p.max_samples = 100;
  p.target_rel_ci = 0.02;
  gbx::detail::set_active_protocol(p);
  const auto run = gbx_test::run_benchmarks("^fixture/healthy/");
  ASSERT_EQ(run.entries.size(), 1u);
  ASSERT_TRUE(run.entries[0].has_value());
  const gbx::detail::RunRecord& r = *run.entries[0];
  // Constant runs. Checked at 4 samples, where the median's interval cannot reach 95% (the widest,
  // [x(1), x(4)], covers 1 - 2 / 2^4 = 87.5%), then every 10: at 14 its half-width is 0.
  EXPECT_EQ(r.measurement.samples.size(), 14u);
  EXPECT_TRUE(r.measurement.enough_reached);
  EXPECT_EQ(r.stopping.rule, "target_rel_ci");
  EXPECT_EQ(r.stopping.target_rel_ci, 0.02);
  EXPECT_TRUE(r.stopping.reached);
  EXPECT_EQ(r.stopping.achieved_rel_ci, std::optional<double>(0.0));
}

TEST_F(FixtureFailures, AdaptiveStoppingThatNeverMeetsItsTargetSaysSo) {
  gbx::detail::Protocol p = gbx::detail::active_protocol();
  p.min_samples = 4;
  p.max_samples = 20;
  p.target_rel_ci = 0.02;
  gbx::detail::set_active_protocol(p);
  const auto run = gbx_test::run_benchmarks("^fixture/noisy/");
  ASSERT_EQ(run.entries.size(), 1u);
  const gbx::detail::RunRecord& r = *run.entries[0];
  EXPECT_EQ(r.measurement.samples.size(), 20u);
  EXPECT_TRUE(r.measurement.sample_bound_reached);
  EXPECT_FALSE(r.stopping.reached);
  ASSERT_TRUE(r.stopping.achieved_rel_ci.has_value());
  EXPECT_GT(*r.stopping.achieved_rel_ci, 0.02);
  EXPECT_EQ(r.stopping.achieved_rel_ci, gbx::median_relative_half_width(r.measurement.samples));
  EXPECT_FALSE(run.any_failed);  // not meeting the target is an outcome, not a failure
}

// --- a least span (--gbx_min_time) ------------------------------------------------------

TEST_F(FixtureFailures, MinTimeKeepsSamplingUntilTheSamplesSpanIt) {
  gbx::detail::Protocol p = gbx::detail::active_protocol();
  p.min_samples = 4;
  p.max_samples = 1000;
  p.min_time_seconds = 0.0305;
  gbx::detail::set_active_protocol(p);
  const auto run = gbx_test::run_benchmarks("^fixture/healthy/");
  ASSERT_EQ(run.entries.size(), 1u);
  ASSERT_TRUE(run.entries[0].has_value());
  const gbx::detail::RunRecord& r = *run.entries[0];
  // Runs of 1 ms, one a sample: 31 samples span 31 ms, the first past 30.5 ms.
  EXPECT_EQ(r.measurement.samples.size(), 31u);
  EXPECT_NEAR(r.measurement.sampling_seconds, 0.031, 1e-9);
  EXPECT_EQ(r.stopping.rule, "min_samples");
  EXPECT_EQ(r.stopping.min_time_seconds, 0.0305);
  EXPECT_TRUE(r.stopping.reached);
}

TEST_F(FixtureFailures, MinTimeCutShortByMaxSamplesIsNotReached) {
  gbx::detail::Protocol p = gbx::detail::active_protocol();
  p.min_samples = 4;
  p.max_samples = 12;
  p.min_time_seconds = 0.5;
  p.cache = gbx::detail::CacheMode::cold;  // unbatched: 12 samples of 1 ms
  gbx::detail::set_active_protocol(p);
  const auto run = gbx_test::run_benchmarks("^fixture/healthy/");
  ASSERT_EQ(run.entries.size(), 1u);
  ASSERT_TRUE(run.entries[0].has_value());
  const gbx::detail::RunRecord& r = *run.entries[0];
  EXPECT_EQ(r.measurement.samples.size(), 12u);
  EXPECT_TRUE(r.measurement.sample_bound_reached);
  EXPECT_FALSE(r.stopping.reached);
  EXPECT_FALSE(run.any_failed);  // a short span is an outcome, flagged, not a failure
}

TEST_F(FixtureFailures, FixedSampleCountStillReportsThePrecision) {
  gbx::detail::Protocol p = gbx::detail::active_protocol();
  p.min_samples = 20;
  p.max_samples = 20;
  gbx::detail::set_active_protocol(p);
  const auto run = gbx_test::run_benchmarks("^fixture/noisy/");
  ASSERT_EQ(run.entries.size(), 1u);
  const gbx::detail::RunRecord& r = *run.entries[0];
  EXPECT_EQ(r.measurement.samples.size(), 20u);
  EXPECT_EQ(r.stopping.rule, "min_samples");
  EXPECT_TRUE(r.stopping.reached);
  ASSERT_TRUE(r.stopping.achieved_rel_ci.has_value());
  EXPECT_EQ(r.stopping.achieved_rel_ci, gbx::median_relative_half_width(r.measurement.samples));
}

// --- interrupts ------------------------------------------------------------------------------

TEST_F(FixtureFailures, InterruptDuringARunDropsThatBenchmarkAndStartsNoOther) {
  const Calls before = Faulty<Fault::interrupt_in_run>::calls();
  const Calls healthy_before = Healthy::calls();
  gbx::install_interrupt_handlers();
  // "interrupted" is registered before "healthy", so healthy comes after the interrupt.
  const auto run = gbx_test::run_benchmarks("^fixture/(interrupted|healthy)/");
  EXPECT_TRUE(gbx::interrupt_requested());
  EXPECT_EQ(gbx::interrupt_signal(), SIGINT);
  ASSERT_EQ(run.entries.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(run.entries[i].has_value());
    EXPECT_TRUE(run.entries[i]->interrupted) << i;
    EXPECT_EQ(run.entries[i]->error, "interrupted") << i;
    EXPECT_EQ(run.benchmarks[i].at("error_occurred"), true) << i;
  }
  // The interrupted call was torn down and released; the next benchmark never acquired anything.
  const Calls& after = Faulty<Fault::interrupt_in_run>::calls();
  EXPECT_EQ(after.teardown - before.teardown, 1);
  EXPECT_EQ(after.release - before.release, 1);
  EXPECT_EQ(Healthy::calls().acquire - healthy_before.acquire, 0);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  char name[] = "fixture_gtest";
  char* fake_argv[] = {name, nullptr};
  int fake_argc = 1;
  benchmark::Initialize(&fake_argc, fake_argv);
  const int result = RUN_ALL_TESTS();
  benchmark::Shutdown();
  return result;
}

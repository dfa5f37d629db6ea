// The sample channel, and the path a measurement takes through it: fixture -> channel -> label
// -> GbxReporter, with three repetitions run in-process by Google Benchmark.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "extensions/cpu_timer.h"
#include "extensions/fixture.h"
#include "model/protocol.h"
#include "model/sample_channel.h"
#include "tests/support/benchmark_run.h"
#include "tests/support/simulated_fixture.h"
#include "tests/support/simulated_timer.h"

namespace {

TEST(RecordLabel, RoundTrips) {
  for (std::int64_t id : {std::int64_t{0}, std::int64_t{1}, std::int64_t{42}, std::int64_t{1} << 40,
                          std::numeric_limits<std::int64_t>::max()}) {
    const auto back = gbx::record_id_from_label(gbx::record_label(id));
    ASSERT_TRUE(back.has_value()) << id;
    EXPECT_EQ(*back, id);
  }
}

TEST(RecordLabel, DistinctIdsGiveDistinctLabels) {
  EXPECT_NE(gbx::record_label(1), gbx::record_label(11));
  EXPECT_NE(gbx::record_label(0), gbx::record_label(10));
}

TEST(RecordLabel, RejectsForeignLabels) {
  const std::string good = gbx::record_label(7);
  const std::string prefix = good.substr(0, good.size() - 1);
  for (const std::string& label :
       {std::string(), std::string("hello"), std::string("reduce/n=4096"), std::string("7"), prefix, prefix + "-1",
        prefix + "12a", prefix + " 1", prefix + "1.5", "x" + good, good + "x"}) {
    EXPECT_FALSE(gbx::record_id_from_label(label).has_value()) << "'" << label << "'";
  }
}

gbx::detail::RunRecord named(const std::string& problem) {
  gbx::detail::RunRecord r;
  r.problem = problem;
  r.id = 99;  // the channel assigns the id; whatever the caller left here is ignored
  return r;
}

TEST(SampleChannel, PublishAssignsIncreasingIds) {
  gbx::SampleChannel channel;
  EXPECT_EQ(channel.publish(named("a")), 0);
  EXPECT_EQ(channel.publish(named("b")), 1);
  EXPECT_EQ(channel.publish(named("c")), 2);
  const auto b = channel.find(1);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->problem, "b");
  EXPECT_EQ(b->id, 1);
  const auto all = channel.records();
  ASSERT_EQ(all.size(), 3u);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].id, static_cast<std::int64_t>(i));
}

TEST(SampleChannel, FindOfAnUnknownIdIsEmpty) {
  gbx::SampleChannel channel;
  EXPECT_FALSE(channel.find(0).has_value());
  channel.publish(named("a"));
  EXPECT_TRUE(channel.find(0).has_value());
  EXPECT_FALSE(channel.find(1).has_value());
  EXPECT_FALSE(channel.find(-1).has_value());
  EXPECT_FALSE(channel.find(std::numeric_limits<std::int64_t>::max()).has_value());
  channel.clear();
  EXPECT_FALSE(channel.find(0).has_value());
  EXPECT_TRUE(channel.records().empty());
}

TEST(SampleChannel, ConcurrentPublishersGetDistinctIds) {
  gbx::SampleChannel channel;
  constexpr int kThreads = 4;
  constexpr int kEach = 250;
  std::vector<std::vector<std::int64_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&channel, &ids, t] {
      for (int i = 0; i < kEach; ++i) ids[static_cast<std::size_t>(t)].push_back(channel.publish(named("p")));
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<std::int64_t> all;
  for (const auto& v : ids) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kThreads * kEach));
  EXPECT_EQ(*all.begin(), 0);
  EXPECT_EQ(*all.rbegin(), kThreads * kEach - 1);
}

// --- end to end ------------------------------------------------------------------------------

constexpr std::int64_t kWarmup = 5;
constexpr std::int64_t kSamples = 8;
constexpr double kWarmupRun = 100.0;       // seconds: no real sample is anywhere near
constexpr double kCalibrationRun = 200.0;  // one run already exceeds the batch target: batch 1
constexpr double kCpuPerRun = 50e-6;       // real CPU burnt per sampled run, for the cpu_time check

// One simulated world for all repetitions: a run's duration depends on its place in the call
// (warm-up, calibration, samples), and every sampled draw is kept, per call, to compare with
// what the reporter receives.
struct World {
  std::int64_t runs_this_call = 0;
  std::vector<std::vector<double>> sample_draws;
  std::normal_distribution<double> kernel{1e-3, 1e-4};
  gbx_test::SimulatedTimer timer{[this](std::mt19937_64& rng) { return draw(rng); }, 2024, 1e-9};

  bool sampling() const { return runs_this_call > kWarmup + 1; }

  double draw(std::mt19937_64& rng) {
    ++runs_this_call;
    if (runs_this_call <= kWarmup) return kWarmupRun;
    if (runs_this_call == kWarmup + 1) return kCalibrationRun;
    const double d = kernel(rng);
    sample_draws.back().push_back(d);
    return d;
  }
};

World& world() {
  static World w;
  return w;
}

class SimulatedKernel : public gbx_test::SimulatedCpuFixture {
 protected:
  gbx_test::SimulatedTimer& simulated() override { return world().timer; }

  void setup(const benchmark::State& state) override {
    world().runs_this_call = 0;
    world().sample_draws.emplace_back();
    declare_problem("sim/n=" + std::to_string(state.range(0)));
  }

  void run() override {
    SimulatedCpuFixture::run();
    // Real CPU inside the timed region, so that the patched cpu_time is distinguishable from
    // Google Benchmark's own (the CPU time of a loop that only sets the iteration time).
    if (world().sampling()) {
      const double until = gbx::process_cpu_seconds() + kCpuPerRun;
      while (gbx::process_cpu_seconds() < until) {
      }
    }
  }
};

GBX_BENCHMARK(SimulatedKernel, "test", "sim")->Arg(7);

gbx::detail::Protocol simulated_protocol() {
  gbx::detail::Protocol p;
  p.warmup_runs = kWarmup;
  p.min_samples = kSamples;
  p.max_samples = 1000;
  p.max_time_seconds = 1e9;  // the warm-up alone takes 500 simulated seconds
  return p;
}

class EndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    gbx::detail::set_active_protocol(simulated_protocol());
    first_call_ = world().sample_draws.size();
    run_ = gbx_test::run_benchmarks("^test/sim/");
    ASSERT_EQ(run_.matched, 1u);
    ASSERT_EQ(run_.entries.size(), run_.benchmarks.size());
    for (std::size_t i = 0; i < run_.benchmarks.size(); ++i) {
      const std::string type = run_.benchmarks[i].at("run_type");
      (type == "iteration" ? iterations_ : aggregates_).push_back(i);
    }
  }

  std::size_t first_call_ = 0;
  gbx_test::BenchmarkRun run_;
  std::vector<std::size_t> iterations_;
  std::vector<std::size_t> aggregates_;
};

TEST_F(EndToEnd, EachRepetitionHasItsOwnRecord) {
  ASSERT_EQ(iterations_.size(), 3u);  // --benchmark_repetitions=3, given to Initialize in main()
  EXPECT_FALSE(aggregates_.empty());
  EXPECT_EQ(iterations_.size() + aggregates_.size(), run_.benchmarks.size());
  EXPECT_FALSE(run_.any_failed);
  std::set<std::int64_t> ids;
  for (std::size_t k = 0; k < iterations_.size(); ++k) {
    const auto& entry = run_.entries[iterations_[k]];
    ASSERT_TRUE(entry.has_value()) << k;
    ids.insert(entry->id);
    EXPECT_EQ(run_.benchmarks[iterations_[k]].at("repetition_index"), static_cast<std::int64_t>(k));
    EXPECT_EQ(entry->measurement.samples.size(), static_cast<std::size_t>(kSamples));
    EXPECT_EQ(entry->measurement.warmup_runs, kWarmup);
    EXPECT_EQ(entry->measurement.calibration_runs, 1);
    EXPECT_EQ(entry->measurement.batch, 1);
    EXPECT_EQ(entry->measurement.timer, gbx::detail::TimerKind::simulated);
    EXPECT_EQ(entry->benchmark, "test/sim");
    EXPECT_EQ(entry->variant, "sim");
    EXPECT_EQ(entry->region, "cpu");
    EXPECT_EQ(entry->args, std::vector<std::int64_t>{7});
    EXPECT_TRUE(entry->error.empty()) << entry->error;
    // The reporter's record is the one the channel holds under that id.
    const auto published = gbx::SampleChannel::global().find(entry->id);
    ASSERT_TRUE(published.has_value());
    EXPECT_EQ(published->measurement.samples, entry->measurement.samples);
  }
  EXPECT_EQ(ids.size(), 3u);
}

TEST_F(EndToEnd, SamplesAreTheSampledDrawsOfTheirOwnRepetition) {
  ASSERT_EQ(iterations_.size(), 3u);
  ASSERT_EQ(world().sample_draws.size(), first_call_ + 3);
  for (std::size_t k = 0; k < 3; ++k) {
    const auto& samples = run_.entries[iterations_[k]]->measurement.samples;
    const auto& draws = world().sample_draws[first_call_ + k];
    ASSERT_EQ(samples.size(), draws.size()) << k;
    for (std::size_t j = 0; j < samples.size(); ++j) {
      EXPECT_NEAR(samples[j], draws[j], 1e-9) << k << "," << j;  // read back through a 1 ns timer
      // No warm-up (100 s) or calibration (200 s) run leaked into a sample.
      EXPECT_LT(samples[j], 1.0);
    }
  }
  // Different repetitions are different draws: no value is shared between them.
  for (std::size_t a = 0; a < 3; ++a) {
    for (std::size_t b = a + 1; b < 3; ++b) {
      for (double x : run_.entries[iterations_[a]]->measurement.samples) {
        for (double y : run_.entries[iterations_[b]]->measurement.samples) EXPECT_NE(x, y) << a << "," << b;
      }
    }
  }
}

TEST_F(EndToEnd, RunsArePatchedWithTheRecord) {
  ASSERT_EQ(iterations_.size(), 3u);
  for (std::size_t i : iterations_) {
    const auto& b = run_.benchmarks[i];
    const auto& m = run_.entries[i]->measurement;
    EXPECT_EQ(b.at("label"), "sim/n=7");  // the problem, not the record label
    EXPECT_EQ(b.at("samples"), static_cast<double>(kSamples));
    EXPECT_EQ(b.at("batch"), 1.0);
    // cpu_time is the CPU time per run inside the timed regions (ns here), not Google Benchmark's.
    ASSERT_EQ(b.at("time_unit"), "ns");
    EXPECT_GE(m.cpu_seconds_per_run, kCpuPerRun);
    EXPECT_NEAR(b.at("cpu_time").get<double>(), m.cpu_seconds_per_run * 1e9, m.cpu_seconds_per_run * 1e9 * 1e-9);
    // real_time is the median sample, the manual time the fixture reported.
    std::vector<double> sorted = m.samples;
    std::sort(sorted.begin(), sorted.end());
    const double median = 0.5 * (sorted[3] + sorted[4]);
    EXPECT_NEAR(b.at("real_time").get<double>(), median * 1e9, median * 1e9 * 1e-9);
  }
}

TEST_F(EndToEnd, AggregatesAreTiedToTheirRepetitionsAndRecomputed) {
  // Google Benchmark empties an aggregate's label when the repetitions' labels differ (they all
  // name their own record), so the reporter must find the repetitions some other way.
  ASSERT_EQ(iterations_.size(), 3u);
  ASSERT_FALSE(aggregates_.empty());
  std::vector<double> cpu;
  for (std::size_t i : iterations_) cpu.push_back(run_.benchmarks[i].at("cpu_time").get<double>());
  std::vector<double> sorted = cpu;
  std::sort(sorted.begin(), sorted.end());
  const double mean = (cpu[0] + cpu[1] + cpu[2]) / 3.0;
  bool saw_mean = false;
  bool saw_median = false;
  for (std::size_t i : aggregates_) {
    const auto& b = run_.benchmarks[i];
    const std::string name = b.at("name");
    ASSERT_TRUE(run_.entries[i].has_value()) << name;
    EXPECT_EQ(run_.entries[i]->id, run_.entries[iterations_[0]]->id) << name;  // the first repetition
    EXPECT_EQ(b.at("label"), "sim/n=7") << name;
    if (b.at("aggregate_name") == "mean") {
      saw_mean = true;
      EXPECT_NEAR(b.at("cpu_time").get<double>(), mean, mean * 1e-9) << name;
    }
    if (b.at("aggregate_name") == "median") {
      saw_median = true;
      EXPECT_NEAR(b.at("cpu_time").get<double>(), sorted[1], sorted[1] * 1e-9) << name;
    }
  }
  EXPECT_TRUE(saw_mean);
  EXPECT_TRUE(saw_median);
}

// The same kernel reported as aggregates only, at two sizes: the repetitions never reach the
// reporter, so their records come from the channel.
GBX_BENCHMARK(SimulatedKernel, "test", "sim_aggregates")->Arg(1)->Arg(2)->ReportAggregatesOnly(true);

TEST(AggregatesOnly, AggregatesFindTheRecordsOfTheirOwnInstance) {
  gbx::detail::set_active_protocol(simulated_protocol());
  const std::int64_t before = static_cast<std::int64_t>(gbx::SampleChannel::global().records().size());
  const auto run = gbx_test::run_benchmarks("^test/sim_aggregates/");
  ASSERT_EQ(run.matched, 2u);
  ASSERT_EQ(run.entries.size(), run.benchmarks.size());
  const auto records = gbx::SampleChannel::global().records();
  int means = 0;
  for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
    const auto& b = run.benchmarks[i];
    const std::string name = b.at("name");
    ASSERT_EQ(b.at("run_type"), "aggregate") << name;
    const std::int64_t arg = name.rfind("test/sim_aggregates/1/", 0) == 0 ? 1 : 2;
    ASSERT_TRUE(run.entries[i].has_value()) << name;
    EXPECT_EQ(run.entries[i]->args, std::vector<std::int64_t>{arg}) << name;
    EXPECT_EQ(b.at("label"), "sim/n=" + std::to_string(arg)) << name;
    if (b.at("aggregate_name") != "mean") continue;
    ++means;
    // Hand-computed from this instance's three records in the channel.
    double sum = 0.0;
    int count = 0;
    for (const auto& r : records) {
      if (r.id < before || r.benchmark != "test/sim_aggregates" || r.args != std::vector<std::int64_t>{arg}) continue;
      sum += r.measurement.cpu_seconds_per_run * 1e9;
      ++count;
    }
    ASSERT_EQ(count, 3) << name;
    EXPECT_NEAR(b.at("cpu_time").get<double>(), sum / 3.0, sum / 3.0 * 1e-9) << name;
  }
  EXPECT_EQ(means, 2);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Google Benchmark's flags come from a fake command line, so that gtest's own stay untouched.
  char name[] = "sample_channel_gtest";
  char repetitions[] = "--benchmark_repetitions=3";
  char* fake_argv[] = {name, repetitions, nullptr};
  int fake_argc = 2;
  benchmark::Initialize(&fake_argc, fake_argv);
  if (benchmark::ReportUnrecognizedArguments(fake_argc, fake_argv)) return 2;
  const int result = RUN_ALL_TESTS();
  benchmark::Shutdown();
  return result;
}

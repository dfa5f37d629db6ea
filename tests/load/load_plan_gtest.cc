// The load flags and how they combine with a registration's plan (model/load_plan.h).
#include <gtest/gtest.h>

#include "model/load_plan.h"
#include "model/protocol.h"

namespace gbx {
namespace {

TEST(LoadPlan, FlagsParseThroughTheCommandLine) {
  const detail::CommandLine line = detail::parse_command_line(
      {"--gbx_concurrency=1,2,8", "--gbx_offered_load=0.5,1.25", "--gbx_arrivals=constant", "--gbx_latency_bound=0.002",
       "--gbx_arrival_seed=7", "--gbx_load_requests=50", "--other"});
  const detail::LoadFlags& f = line.load;
  EXPECT_EQ(f.concurrency, (std::vector<std::int64_t>{1, 2, 8}));
  EXPECT_EQ(f.offered_load, (std::vector<double>{0.5, 1.25}));
  EXPECT_EQ(f.arrivals, std::optional<ArrivalProcess>(ArrivalProcess::constant));
  EXPECT_DOUBLE_EQ(f.latency_bound_seconds, 0.002);
  EXPECT_EQ(f.arrival_seed, 7);
  EXPECT_EQ(f.requests, 50);
  EXPECT_EQ(line.passthrough, (std::vector<std::string>{"--other"}));
}

TEST(LoadPlan, BadValuesNameTheFlag) {
  for (const char* bad :
       {"--gbx_concurrency=0", "--gbx_concurrency=1,,2", "--gbx_concurrency=two", "--gbx_offered_load=-1",
        "--gbx_offered_load=nan", "--gbx_arrivals=bursty", "--gbx_latency_bound=0", "--gbx_load_requests=5",
        "--gbx_arrival_seed=-3", "--gbx_find_peak=yes", "--gbx_load_seconds=0", "--gbx_load_seconds=x"}) {
    try {
      detail::parse_command_line({bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const detail::FlagError& e) {
      const std::string flag = std::string(bad).substr(0, std::string(bad).find('='));
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  }
}

TEST(LoadPlan, RegistrationAndFlagsCombine) {
  LoadPlan registered;
  registered.concurrency = {1, 2};
  registered.offered_load = {0.5};
  registered.servers = 2;
  registered.applies_to = [](const std::vector<std::int64_t>& args) { return args == std::vector<std::int64_t>{4096}; };
  LoadPlan plan;
  EXPECT_FALSE(effective_load_plan(nullptr, detail::LoadFlags{}, {4096}, plan));
  EXPECT_FALSE(effective_load_plan(&registered, detail::LoadFlags{}, {1 << 24}, plan));  // not these arguments
  ASSERT_TRUE(effective_load_plan(&registered, detail::LoadFlags{}, {4096}, plan));
  EXPECT_EQ(plan.concurrency, (std::vector<std::int64_t>{1, 2}));
  detail::LoadFlags flags;
  flags.concurrency = {8, 4};
  flags.offered_load = {0.9, 0.3};
  ASSERT_TRUE(effective_load_plan(&registered, flags, {1 << 24}, plan));  // flags apply to every benchmark
  // The servers' level joins the closed loop: it gives the capacity the offered loads scale.
  EXPECT_EQ(plan.concurrency, (std::vector<std::int64_t>{2, 4, 8}));
  EXPECT_EQ(plan.offered_load, (std::vector<double>{0.3, 0.9}));
  ASSERT_TRUE(effective_load_plan(nullptr, flags, {}, plan));
  EXPECT_EQ(plan.concurrency, (std::vector<std::int64_t>{1, 4, 8}));
  flags.off = true;
  EXPECT_FALSE(effective_load_plan(&registered, flags, {4096}, plan));
}

TEST(LoadPlan, NewFlagsAndTheDefaultSuitesGate) {
  const detail::CommandLine line =
      detail::parse_command_line({"--gbx_find_peak=on", "--gbx_load_seconds=2.5", "--gbx_offered_load=off"});
  EXPECT_EQ(line.load.find_peak, std::optional<bool>(true));
  EXPECT_DOUBLE_EQ(line.load.seconds_per_level, 2.5);
  EXPECT_TRUE(line.load.no_open_loop);
  LoadPlan registered;
  registered.concurrency = {1};
  registered.offered_load = {0.5};
  registered.only_where_valid = true;
  LoadPlan plan;
  ASSERT_TRUE(effective_load_plan(&registered, detail::LoadFlags{}, {}, plan));
  EXPECT_TRUE(plan.only_where_valid);  // the registration's own sweep is gated
  ASSERT_TRUE(effective_load_plan(&registered, line.load, {}, plan));
  EXPECT_FALSE(plan.only_where_valid);  // a user who asks gets the sweep
  EXPECT_TRUE(plan.offered_load.empty());
  EXPECT_TRUE(plan.find_peak);
  EXPECT_DOUBLE_EQ(plan.max_seconds_per_level, 2.5);
  EXPECT_EQ(plan.concurrency, (std::vector<std::int64_t>{1}));  // the servers' level, for the capacity
}

}  // namespace
}  // namespace gbx

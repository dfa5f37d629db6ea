// The load flags and how they combine with a registration's plan (model/load_plan.h).
#include <gtest/gtest.h>

#include "model/load_plan.h"
#include "model/protocol.h"

namespace gbx {
namespace {

TEST(LoadPlan, FlagsParseThroughTheCommandLine) {
  const CommandLine line =
      parse_command_line({"--gbx_concurrency=1,2,8", "--gbx_offered_load=0.5,1.25", "--gbx_arrivals=constant",
                          "--gbx_latency_bound=0.002", "--gbx_arrival_seed=7", "--gbx_load_requests=50", "--other"});
  const LoadFlags& f = line.load;
  EXPECT_EQ(f.concurrency, (std::vector<std::int64_t>{1, 2, 8}));
  EXPECT_EQ(f.offered_load, (std::vector<double>{0.5, 1.25}));
  EXPECT_EQ(f.arrivals, std::optional<ArrivalProcess>(ArrivalProcess::constant));
  EXPECT_DOUBLE_EQ(f.latency_bound_seconds, 0.002);
  EXPECT_EQ(f.arrival_seed, 7);
  EXPECT_EQ(f.requests, 50);
  EXPECT_EQ(line.passthrough, (std::vector<std::string>{"--other"}));
}

TEST(LoadPlan, BadValuesNameTheFlag) {
  for (const char* bad : {"--gbx_concurrency=0", "--gbx_concurrency=1,,2", "--gbx_concurrency=two",
                          "--gbx_offered_load=-1", "--gbx_offered_load=nan", "--gbx_arrivals=bursty",
                          "--gbx_latency_bound=0", "--gbx_load_requests=5", "--gbx_arrival_seed=-3"}) {
    try {
      parse_command_line({bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const FlagError& e) {
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
  EXPECT_FALSE(effective_load_plan(nullptr, LoadFlags{}, {4096}, plan));
  EXPECT_FALSE(effective_load_plan(&registered, LoadFlags{}, {1 << 24}, plan));  // not these arguments
  ASSERT_TRUE(effective_load_plan(&registered, LoadFlags{}, {4096}, plan));
  EXPECT_EQ(plan.concurrency, (std::vector<std::int64_t>{1, 2}));
  LoadFlags flags;
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

}  // namespace
}  // namespace gbx

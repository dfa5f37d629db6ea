// gbx ab's --affinity (processes/cpu_affinity.h): auto pins the caller to the highest CPU of its mask,
// a number to that CPU, none leaves the mask alone, and a bad spec or a CPU outside the mask is an
// error that pins nothing. Each test runs in its own process (gtest_discover_tests), so a pin made by
// one does not reach the others.
#include <gtest/gtest.h>

#include <sched.h>

#include "processes/cpu_affinity.h"

namespace {

cpu_set_t current_mask() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  EXPECT_EQ(::sched_getaffinity(0, sizeof mask, &mask), 0);
  return mask;
}

int highest(const cpu_set_t& mask) {
  for (int c = CPU_SETSIZE - 1; c >= 0; --c) {
    if (CPU_ISSET(c, &mask)) return c;
  }
  return -1;
}

TEST(CpuAffinity, AutoPinsToTheHighestAllowedCpu) {
  const int expected = highest(current_mask());
  const gbx::CpuChoice choice = gbx::pin_to_cpu("auto");
  ASSERT_TRUE(choice.error.empty()) << choice.error;
  ASSERT_TRUE(choice.cpu);
  EXPECT_EQ(*choice.cpu, expected);
  const cpu_set_t after = current_mask();
  EXPECT_EQ(CPU_COUNT(&after), 1);
  EXPECT_TRUE(CPU_ISSET(expected, &after));
}

TEST(CpuAffinity, ANumberPinsToThatCpu) {
  cpu_set_t before = current_mask();
  int lowest = 0;
  while (!CPU_ISSET(lowest, &before)) ++lowest;
  const gbx::CpuChoice choice = gbx::pin_to_cpu(std::to_string(lowest));
  ASSERT_TRUE(choice.error.empty()) << choice.error;
  EXPECT_EQ(choice.cpu, lowest);
  const cpu_set_t after = current_mask();
  EXPECT_EQ(CPU_COUNT(&after), 1);
  EXPECT_TRUE(CPU_ISSET(lowest, &after));
}

TEST(CpuAffinity, NoneAndBadSpecsLeaveTheMaskAlone) {
  const cpu_set_t before = current_mask();
  EXPECT_FALSE(gbx::pin_to_cpu("none").cpu);
  EXPECT_TRUE(gbx::pin_to_cpu("none").error.empty());
  for (const char* bad : {"", "fast", "-1", "1.5", "2x"}) {
    const gbx::CpuChoice choice = gbx::pin_to_cpu(bad);
    EXPECT_FALSE(choice.cpu) << bad;
    EXPECT_EQ(choice.error, "expected auto, none or a CPU number") << bad;
  }
  const int outside = highest(before) + 1;
  ASSERT_LT(outside, CPU_SETSIZE);
  const gbx::CpuChoice choice = gbx::pin_to_cpu(std::to_string(outside));
  EXPECT_FALSE(choice.cpu);
  EXPECT_EQ(choice.error, "CPU " + std::to_string(outside) + " is not one this process may run on");
  const cpu_set_t after = current_mask();
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

}  // namespace

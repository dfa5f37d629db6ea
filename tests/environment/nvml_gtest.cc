// read_nvml() against the stand-in library in tests/environment/fake_nvml.cc (CTest puts it on
// LD_LIBRARY_PATH), and the pure helpers.
#include <gtest/gtest.h>

#include <string>

#include "environment/nvml.h"

namespace gbx {
namespace {

TEST(Nvml, ReadsTheFakeDevice) {
  const nlohmann::json readings = read_nvml();
  ASSERT_TRUE(readings["devices"].is_object()) << readings.dump();
  const std::string uuid = "GPU-00112233-4455-6677-8899-aabbccddeeff";
  ASSERT_TRUE(readings["devices"].contains(uuid)) << "the real NVML was loaded, not the fake: " << readings.dump();
  const nlohmann::json& device = readings["devices"][uuid];
  EXPECT_EQ(device["clock_graphics_mhz"], 1000);
  EXPECT_EQ(device["clock_sm_mhz"], 1001);
  EXPECT_EQ(device["clock_memory_mhz"], 1002);
  EXPECT_TRUE(device["max_clock_sm_mhz"].is_null());
  EXPECT_EQ(device["max_clock_sm_mhz_unavailable"], "Not Supported");
  EXPECT_EQ(device["power_limit_mw"], 700000);
  EXPECT_EQ(device["persistence_mode"], true);
  EXPECT_EQ(device["temperature_c"], 41);
  EXPECT_EQ(device["throttle_reasons_mask"], 5);
  EXPECT_EQ(device["throttle_reasons"], nlohmann::json({"gpu_idle", "sw_power_cap"}));
}

TEST(Nvml, UuidTextMatchesNvmlsForm) {
  const unsigned char bytes[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                   0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
  EXPECT_EQ(nvml_uuid(bytes), "GPU-00112233-4455-6677-8899-aabbccddeeff");
}

TEST(Nvml, ThrottleReasonNamesIncludeUnknownBits) {
  EXPECT_EQ(throttle_reason_names(0), nlohmann::json::array());
  EXPECT_EQ(throttle_reason_names(0x48ULL | (1ULL << 40)),
            nlohmann::json({"hw_slowdown", "hw_thermal_slowdown", "bit_40"}));
}

}  // namespace
}  // namespace gbx

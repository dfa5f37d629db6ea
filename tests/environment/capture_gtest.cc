// The environment capture on this machine: types, nulls with reasons, and the lock hash.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "environment/environment.h"

namespace gbx {
namespace {

using Json = nlohmann::json;

// A key holds `is_type`, or is null with a non-empty reason beside it.
template <typename Pred>
void expect_value_or_reason(const Json& object, const std::string& key, Pred is_type) {
  ASSERT_TRUE(object.contains(key)) << key << " missing in " << object.dump();
  const Json& value = object[key];
  if (value.is_null()) {
    const std::string reason_key = key + "_unavailable";
    ASSERT_TRUE(object.contains(reason_key)) << key << " is null without " << reason_key;
    ASSERT_TRUE(object[reason_key].is_string());
    EXPECT_FALSE(object[reason_key].get<std::string>().empty()) << reason_key;
  } else {
    EXPECT_TRUE(is_type(value)) << key << " = " << value.dump();
  }
}

const auto is_string = [](const Json& v) { return v.is_string() && !v.get<std::string>().empty(); };
const auto is_count = [](const Json& v) { return v.is_number_unsigned() && v.get<unsigned long long>() > 0; };
const auto is_bool = [](const Json& v) { return v.is_boolean(); };
const auto is_load = [](const Json& v) { return v.is_object() && v["1m"].is_number() && v["15m"].is_number(); };

class Environment : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { environment_ = new Json(capture_environment(capture_start(), {"bench", "--flag"})); }
  static void TearDownTestSuite() { delete environment_; }
  static const Json& env() { return *environment_; }

 private:
  static Json* environment_;
};
Json* Environment::environment_ = nullptr;

TEST_F(Environment, HostFieldsHaveTheirTypes) {
  const Json& host = env()["host"];
  for (const char* key :
       {"hostname", "os", "kernel", "kernel_build", "machine", "distribution", "cpu_model", "governor"}) {
    expect_value_or_reason(host, key, is_string);
  }
  for (const char* key : {"logical_cpus", "physical_cores", "allowed_cpus", "memory_total_bytes"}) {
    expect_value_or_reason(host, key, is_count);
  }
  expect_value_or_reason(host, "smt", is_bool);
  expect_value_or_reason(host, "turbo", is_bool);
  expect_value_or_reason(host, "load_average_start", is_load);
  expect_value_or_reason(host, "load_average_end", is_load);
  const Json& virtualization = host["virtualization"];
  expect_value_or_reason(virtualization, "guest", is_bool);
  EXPECT_TRUE(virtualization["evidence"].is_array());
  if (virtualization["guest"] == true) {
    EXPECT_FALSE(virtualization["evidence"].empty());
  }
  for (const char* key : {"cpuid_hypervisor", "dmi_vendor", "dmi_product", "sys_hypervisor_type"}) {
    expect_value_or_reason(virtualization, key, is_string);
  }
  expect_value_or_reason(host, "kernel_parameters", [](const Json& v) { return v.is_array(); });
  expect_value_or_reason(host, "clocksource", is_string);
  expect_value_or_reason(host, "transparent_hugepage", is_string);
  // Linux always answers these.
  EXPECT_TRUE(host["kernel"].is_string());
  EXPECT_TRUE(host["memory_total_bytes"].is_number());
  EXPECT_TRUE(host["load_average_start"].is_object());
  if (host["physical_cores"].is_number() && host["logical_cpus"].is_number()) {
    EXPECT_LE(host["physical_cores"].get<unsigned>(), host["logical_cpus"].get<unsigned>());
  }
}

TEST_F(Environment, BuildNamesTheToolchainAndDependencies) {
  const Json& build = env()["build"];
  for (const char* key : {"google_benchmark", "boost", "nlohmann_json", "openssl"}) {
    EXPECT_TRUE(build[key].is_string()) << key << " = " << build[key].dump();
  }
  // The program's own build: this test links no gbx::main, so each says why it is unknown
  // (tests/environment/git_facts_gtest.cc registers some). gbx's own build is always known.
  for (const char* key : {"compiler", "flags", "build_type", "cmake", "optimization"}) {
    expect_value_or_reason(build, key, is_string);
  }
  expect_value_or_reason(build, "assertions", is_bool);
  for (const char* key : {"version", "compiler", "flags", "build_type", "cmake"}) {
    EXPECT_TRUE(build["gbx"][key].is_string()) << key << " = " << build["gbx"][key].dump();
  }
  EXPECT_TRUE(build["gbx"]["assertions"].is_boolean());
  EXPECT_TRUE(build["cuda"].is_boolean());
  for (const char* key : {"cuda_toolkit", "google_benchmark_library_build_type", "openblas", "openblas_core",
                          "openblas_config", "cublas"}) {
    expect_value_or_reason(build, key, is_string);
  }
  // This test does not link OpenBLAS, so the capture must not invent a version.
  EXPECT_TRUE(build["openblas"].is_null());
  EXPECT_EQ(build["cuda_toolkit"].is_string(), build["cuda"].get<bool>());
}

TEST_F(Environment, SourceHasACommitOrAReason) {
  const Json& source = env()["source"];
  expect_value_or_reason(source, "commit", [](const Json& v) {
    return v.is_string() && v.get<std::string>().size() == 40 &&
           v.get<std::string>().find_first_not_of("0123456789abcdef") == std::string::npos;
  });
  expect_value_or_reason(source, "dirty", is_bool);
  expect_value_or_reason(source, "branch", is_string);
  const std::string hash = source["dependency_lock_sha256"].get<std::string>();
  EXPECT_EQ(hash.size(), 64u);
  EXPECT_EQ(hash.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_TRUE(source["dependency_lock"].is_array());
  EXPECT_FALSE(source["dependency_lock"].empty());
}

TEST_F(Environment, ProcessRecordsArgvAndVariables) {
  const Json& process = env()["process"];
  EXPECT_EQ(process["argv"], Json({"bench", "--flag"}));
  const Json& variables = process["variables"];
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "CUDA_LAUNCH_BLOCKING", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                           "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "GOMP_CPU_AFFINITY", "MKL_NUM_THREADS"}) {
    ASSERT_TRUE(variables.contains(name)) << name;
    EXPECT_TRUE(variables[name].is_null() || variables[name].is_string()) << name;
  }
}

TEST_F(Environment, GpusAreListedOrExplained) {
  const Json& e = env();
  ASSERT_TRUE(e["gpus"].is_array());
  if (e["gpus"].empty()) {
    ASSERT_TRUE(e.contains("gpus_unavailable"));
    EXPECT_FALSE(e["gpus_unavailable"].get<std::string>().empty());
  }
  for (const Json& gpu : e["gpus"]) {
    EXPECT_TRUE(gpu["name"].is_string());
    EXPECT_EQ(gpu["uuid"].get<std::string>().rfind("GPU-", 0), 0u);
    EXPECT_TRUE(gpu["sm_count"].is_number());
    expect_value_or_reason(gpu, "nvml_at_start", [](const Json& v) { return v.is_object(); });
    expect_value_or_reason(gpu, "nvml_at_end", [](const Json& v) { return v.is_object(); });
  }
  expect_value_or_reason(e, "nvml", [](const Json& v) { return v.is_object(); });
  expect_value_or_reason(e["cuda"], "runtime_version", is_string);
  expect_value_or_reason(e["cuda"], "driver_version", is_string);
}

TEST(EnvironmentWithoutStart, StartValuesAreNullWithTheReason) {
  const Json e = capture_environment();
  EXPECT_TRUE(e["host"]["load_average_start"].is_null());
  EXPECT_NE(e["host"]["load_average_start_unavailable"].get<std::string>().find("capture_start"), std::string::npos);
  EXPECT_TRUE(e["process"]["argv"].is_null());
  EXPECT_FALSE(e["process"]["argv_unavailable"].get<std::string>().empty());
}

TEST(DependencyLockHash, IsSha256OfSortedLines) {
  // sha256("a=1\nb=2\n"), computed with sha256sum.
  EXPECT_EQ(dependency_lock_hash({{"b", "2"}, {"a", "1"}}),
            "4a73850fde34aad40ff8649b93a66523a5fe744357a3931caea0f10609d0d930");
}

TEST(DependencyLockHash, ChangesWhenAVersionChanges) {
  const std::map<std::string, std::optional<std::string>> before = {{"boost", "1.74.0"}, {"openblas", "0.3.21"}};
  auto after = before;
  after["openblas"] = "0.3.22";
  EXPECT_NE(dependency_lock_hash(before), dependency_lock_hash(after));
  auto gone = before;
  gone["openblas"] = std::nullopt;
  EXPECT_NE(dependency_lock_hash(before), dependency_lock_hash(gone));
  EXPECT_EQ(dependency_lock_hash(before), dependency_lock_hash(before));
}

}  // namespace
}  // namespace gbx

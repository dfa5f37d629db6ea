// The compatibility gate of gbx compare on hand-built, sealed records: what must match, what may
// differ, and what --allow-incompatible does.
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>

#include "cli/compare_command.h"
#include "tests/support/sealed_record_file.h"

namespace {

struct Facts {
  std::string gpu = "NVIDIA H200";
  std::string driver = "570.124.06";
  std::string hostname = "node-a";
  std::string commit = "aaaa";
  std::string cache = "hot";
  std::string precision = "fp32";
  double scale = 1.0;         // of the samples
  std::optional<bool> guest;  // absent: a record from before gbx read it
};

std::string write_record(const std::string& name, const Facts& f) {
  nlohmann::json samples = nlohmann::json::array();
  for (int i = 0; i < 40; ++i) samples.push_back(f.scale * (1e-3 + 1e-6 * (i % 7)));
  nlohmann::json record = {
      {"context", {{"caches", nlohmann::json::array()}}},
      {"benchmarks",
       {{{"name", "gemm/cublas_sgemm/m:1024/n:1024/k:1024/iterations:1/manual_time"},
         {"run_type", "iteration"},
         {"real_time", f.scale * 1000.0},
         {"cpu_time", 1.0},
         {"time_unit", "us"},
         {"gbx",
          {{"problem", "gemm/m=1024,n=1024,k=1024"},
           {"variant", "cublas_sgemm"},
           {"region", "device"},
           {"precision", f.precision},
           {"measurement", {{"timer", "cuda_event"}, {"cache", f.cache}}},
           {"samples", samples}}}}}},
      {"gbx",
       {{"schema_version", 1},
        {"protocol", {{"cache", f.cache}, {"warmup_runs", 10}, {"batch_resolution_factor", 100.0}}},
        {"environment",
         {{"host", {{"hostname", f.hostname}}},
          {"source", {{"commit", f.commit}}},
          {"build", {{"build_type", "Release"}, {"google_benchmark", "1.7.1"}}},
          {"gpus", {{{"name", f.gpu}, {"driver_version", f.driver}, {"runtime_version", "13.0"}}}}}}}}};
  if (f.guest) record["gbx"]["environment"]["host"]["virtualization"] = {{"guest", *f.guest}};
  return gbx_test::write_sealed_record(name, record);
}

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome compare(const Facts& base, const Facts& candidate, bool allow = false) {
  gbx::tools::CompareOptions options;
  options.base = write_record("base.json", base);
  options.candidate = write_record("candidate.json", candidate);
  options.allow_incompatible = allow;
  std::ostringstream out, err;
  const int code = gbx::tools::compare_records(options, out, err);
  return {code, out.str(), err.str()};
}

TEST(CompareGate, HostNameDateAndCommitMayDiffer) {
  Facts candidate;
  candidate.hostname = "node-b";
  candidate.commit = "bbbb";
  const Outcome o = compare(Facts{}, candidate);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("gemm/cublas_sgemm/m:1024/n:1024/k:1024: the same"), std::string::npos) << o.out;
}

TEST(CompareGate, AnotherGpuModelIsIncompatibleAndBothValuesAreShown) {
  Facts candidate;
  candidate.gpu = "NVIDIA H100 80GB HBM3";
  const Outcome o = compare(Facts{}, candidate);
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("GPU model"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("base: NVIDIA H200"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("candidate: NVIDIA H100 80GB HBM3"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("--allow-incompatible"), std::string::npos) << "the way out is named";
}

TEST(CompareGate, OnlyTheDriversMajorVersionCounts) {
  Facts minor;
  minor.driver = "570.133.20";
  EXPECT_EQ(compare(Facts{}, minor).code, 0);
  Facts major;
  major.driver = "575.51.03";
  const Outcome o = compare(Facts{}, major);
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("GPU driver major version"), std::string::npos) << o.err;
}

TEST(CompareGate, AVirtualMachineAgainstBareMetalIsIncompatibleUnlessOneRecordCannotSay) {
  Facts metal, guest;
  metal.guest = false;
  guest.guest = true;
  const Outcome o = compare(metal, guest);
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("virtual machine"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("base: false"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("candidate: true"), std::string::npos) << o.err;
  EXPECT_EQ(compare(guest, guest).code, 0);
  EXPECT_EQ(compare(Facts{}, guest).code, 0) << "an older record has no virtualization to compare";
}

TEST(CompareGate, ABenchmarksPrecisionOrCacheModeMustMatch) {
  Facts tf32;
  tf32.precision = "tf32";
  const Outcome o = compare(Facts{}, tf32);
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("precision"), std::string::npos) << o.err;
  Facts cold;
  cold.cache = "cold";
  EXPECT_EQ(compare(Facts{}, cold).code, 2);
}

TEST(CompareGate, AllowIncompatibleGoesOnAndMarksEveryRow) {
  Facts candidate;
  candidate.gpu = "NVIDIA H100 80GB HBM3";
  candidate.scale = 1.10;
  const Outcome o = compare(Facts{}, candidate, true);
  EXPECT_EQ(o.code, 3) << "still a verdict: 10% slower, unreplicated (one process per side)";
  EXPECT_NE(o.out.find("INCOMPATIBLE"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("GPU model"), std::string::npos) << "the differences are still shown";
}

}  // namespace

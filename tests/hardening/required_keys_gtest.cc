// Keys the record schema requires are required by the reader: a sealed record missing one is
// refused with the key named, while every record gbx wrote stays valid.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "record/checksum.h"
#include "record/json_parse.h"
#include "record/record_reader.h"
#include "record/record_schema.h"
#include "tests/support/complete_record.h"
#include "tests/support/sealed_record_file.h"

namespace {

using json = nlohmann::json;

std::string refusal(const std::string& path) {
  try {
    gbx::load_record(path);
  } catch (const gbx::BadRecord& fault) {
    return fault.what();
  }
  return "";
}

// A completed record with one measured benchmark, so that the entry's own required keys (and those
// samples make required) are there to take away.
json record_with_one_benchmark() {
  return gbx_test::complete_record({{"benchmarks",
                                     {{{"name", "reduce/n=8"},
                                       {"real_time", 1.5},
                                       {"cpu_time", 1.5},
                                       {"time_unit", "us"},
                                       {"gbx",
                                        {{"problem", "reduce/n=8"},
                                         {"variant", "naive"},
                                         {"samples", {1e-6, 2e-6}},
                                         {"stats", {{"median_ci", json::object()}}}}}}}}});
}

TEST(RequiredKeys, TheMinimalRecordIsValidAndReadable) {
  const json minimal = gbx_test::minimal_valid_record();
  EXPECT_EQ(gbx::schema_violation(minimal), "");
  EXPECT_TRUE(minimal["benchmarks"].empty());
  EXPECT_EQ(refusal(gbx_test::write_sealed_record("minimal.json", minimal)), "");
  EXPECT_EQ(gbx::schema_violation(record_with_one_benchmark()), "");
}

TEST(RequiredKeys, TheReaderNamesEachMissingKey) {
  // The loader's own checks name some keys first ('run_type'), the schema the rest ("region").
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/context/executable", "/context: has no \"executable\""},
      {"/gbx/run_id", "/gbx: has no \"run_id\""},
      {"/gbx/protocol/min_samples", "/gbx/protocol: has no \"min_samples\""},
      {"/benchmarks/0/run_type", "benchmarks[0] has no 'run_type'"},
      {"/benchmarks/0/gbx/region", "/benchmarks/0/gbx: has no \"region\""},
      {"/benchmarks/0/gbx/measurement", "/benchmarks/0/gbx: has \"samples\" but no \"measurement\""},
      {"/benchmarks/0/gbx/measurement/stopping/rule", "/benchmarks/0/gbx/measurement/stopping: has no \"rule\""},
      {"/benchmarks/0/gbx/stats/median_ci/method", "/benchmarks/0/gbx/stats/median_ci: has no \"method\""},
  };
  for (const auto& [pointer, expected] : cases) {
    json record = record_with_one_benchmark();
    const json::json_pointer key(pointer);
    record.at(key.parent_pointer()).erase(key.back());
    // Written sealed but not completed: the test's point is the missing key.
    gbx::seal_record(record);
    const std::string path = ::testing::TempDir() + "required_keys_missing.json";
    std::ofstream(path) << record.dump();
    const std::string fault = refusal(path);
    EXPECT_NE(fault.find(expected), std::string::npos) << pointer << ": " << fault;
  }
}

// Every key the completed record holds: taking one away makes the reader refuse the record whenever
// the schema requires it (the reader may refuse more: a measured entry without samples), and most
// keys of a record are required.
TEST(RequiredKeys, TheReaderAgreesWithTheSchemaOnEveryKey) {
  const json full = record_with_one_benchmark();
  const json flat = full.flatten();
  std::size_t refused = 0, tried = 0;
  std::vector<std::string> pointers;
  for (const auto& [leaf, value] : flat.items()) {
    // Every ancestor object member of each leaf, once.
    for (json::json_pointer p(leaf); !p.empty(); p = p.parent_pointer()) {
      if (full.at(p.parent_pointer()).is_object()) pointers.push_back(p.to_string());
    }
  }
  std::sort(pointers.begin(), pointers.end());
  pointers.erase(std::unique(pointers.begin(), pointers.end()), pointers.end());
  for (const std::string& pointer : pointers) {
    if (pointer == "/gbx/checksum" || pointer.rfind("/gbx/checksum/", 0) == 0) continue;  // the seal's own
    json record = full;
    const json::json_pointer key(pointer);
    record.at(key.parent_pointer()).erase(key.back());
    const bool schema_refuses = !gbx::schema_violation(record).empty();
    gbx::seal_record(record);
    const std::string path = ::testing::TempDir() + "required_keys_each.json";
    std::ofstream(path) << record.dump();
    if (schema_refuses) {
      EXPECT_NE(refusal(path), "") << pointer;
    }
    refused += schema_refuses ? 1 : 0;
    ++tried;
  }
  EXPECT_GT(tried, 60u);
  EXPECT_GT(refused, tried / 2);
}

// The records gbx wrote, in the fuzz corpus and the pre-layout fixture, hold every required key.
TEST(RequiredKeys, RecordsGbxWroteStayValid) {
  std::vector<std::string> paths = {GBX_RECORD_FIXTURES "/pre_layout_record.json"};
  DIR* corpus = ::opendir(GBX_FUZZ_CORPUS);
  ASSERT_NE(corpus, nullptr);
  while (const dirent* file = ::readdir(corpus)) {
    const std::string name = file->d_name;
    if (name.rfind("seed-", 0) == 0) paths.push_back(std::string(GBX_FUZZ_CORPUS) + "/" + name);
  }
  ::closedir(corpus);
  ASSERT_GE(paths.size(), 4u);
  for (const std::string& path : paths) {
    const json record = gbx::parse_json_strictly(gbx::read_json_file(path));
    if (!record.contains("gbx")) continue;  // plain Google Benchmark JSON has no schema to meet
    EXPECT_EQ(gbx::schema_violation(record), "") << path;
    EXPECT_EQ(refusal(path), "") << path;
  }
}

TEST(RequiredKeys, APatternWithoutEndAnchorMatchesAPrefix) {
  // gbx.processes.runs[].exit.signal is "^SIG": a record of a process killed by a signal.
  const json schema = {{"pattern", "^SIG"}};
  EXPECT_EQ(gbx::schema_violation(schema, "SIGKILL"), "");
  EXPECT_NE(gbx::schema_violation(schema, "KILL"), "");
}

}  // namespace

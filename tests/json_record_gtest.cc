// The JSON record and how it reaches the disk: non-finite tokens, run ids, timestamps,
// build_record and the atomic writes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/atomic_file.h"
#include "tests/support/regex.h"
#include "writer/json_record.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(ReplaceNonFinite, TokensOutsideStringsBecomeNull) {
  const std::string in = R"({"a": NaN, "b": Infinity, "c": -Infinity, "d": inf, "e": -inf, "f": nan, "g": -nan, )"
                         R"("h": -NaN, "i": [NaN,1.5,Infinity]})";
  const std::string expected = R"({"a": null, "b": null, "c": null, "d": null, "e": null, "f": null, "g": null, )"
                               R"("h": null, "i": [null,1.5,null]})";
  const std::string out = gbx::replace_non_finite_with_null(in);
  EXPECT_EQ(out, expected);
  EXPECT_TRUE(json::accept(out)) << out;
}

TEST(ReplaceNonFinite, StringsAreLeftAlone) {
  const std::string in = R"({"NaN is fine": "NaN is fine", "x": "Infinity and -inf", )"
                         R"("esc": "a \"NaN\" inside", "back": "ends with \\", "n": nan})";
  const std::string expected = R"({"NaN is fine": "NaN is fine", "x": "Infinity and -inf", )"
                               R"("esc": "a \"NaN\" inside", "back": "ends with \\", "n": null})";
  EXPECT_EQ(gbx::replace_non_finite_with_null(in), expected);
}

TEST(ReplaceNonFinite, OrdinaryJsonIsUnchanged) {
  const std::string in = R"({"t": true, "f": false, "z": null, "x": -1.5e-9, "s": "", "a": [], "o": {}})";
  EXPECT_EQ(gbx::replace_non_finite_with_null(in), in);
}

TEST(RunId, IsAVersion4Uuid) {
  const std::string uuid = "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$";
  for (int i = 0; i < 100; ++i) {
    const std::string id = gbx::new_run_id();
    EXPECT_TRUE(gbx_test::regex_match(id, uuid)) << id;
  }
}

TEST(RunId, TwoIdsDiffer) { EXPECT_NE(gbx::new_run_id(), gbx::new_run_id()); }

// Seconds since the epoch of a UTC time read with format.
std::time_t parse_utc(const std::string& text, const char* format) {
  std::tm tm{};
  std::istringstream in(text);
  in >> std::get_time(&tm, format);
  EXPECT_FALSE(in.fail()) << text;
  return timegm(&tm);
}

TEST(UtcTimestamp, Iso8601) {
  const std::time_t before = std::time(nullptr);
  const std::string text = gbx::utc_timestamp();
  const std::time_t after = std::time(nullptr);
  EXPECT_TRUE(gbx_test::regex_match(text, R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$)")) << text;
  const std::time_t parsed = parse_utc(text, "%Y-%m-%dT%H:%M:%SZ");
  EXPECT_GE(parsed, before);  // UTC, not local time
  EXPECT_LE(parsed, after);
}

TEST(UtcTimestamp, Compact) {
  const std::time_t before = std::time(nullptr);
  const std::string text = gbx::utc_timestamp(true);
  const std::time_t after = std::time(nullptr);
  EXPECT_TRUE(gbx_test::regex_match(text, R"(^\d{8}T\d{6}Z$)")) << text;
  const std::time_t parsed = parse_utc(text, "%Y%m%dT%H%M%SZ");
  EXPECT_GE(parsed, before);
  EXPECT_LE(parsed, after);
}

// Google Benchmark's JSON as its reporter writes it: an iteration, an aggregate, an unrelated
// run, and a NaN counter.
const char* kGoogleBenchmarkJson = R"({
  "context": {"date": "2026-11-30T04:00:00+00:00", "num_cpus": 2, "library_build_type": "release"},
  "benchmarks": [
    {"name": "reduce/naive/n:4096/iterations:1/manual_time", "run_name": "reduce/naive/n:4096",
     "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 1,
     "real_time": 2.5, "cpu_time": 3.5, "time_unit": "us", "label": "reduce/n=4096", "samples": 3.0,
     "odd": NaN},
    {"name": "reduce/naive/n:4096/iterations:1/manual_time_mean", "run_name": "reduce/naive/n:4096",
     "run_type": "aggregate", "aggregate_name": "mean", "iterations": 3, "real_time": 2.5,
     "cpu_time": 3.5, "time_unit": "us"},
    {"name": "plain", "run_type": "iteration", "iterations": 7, "real_time": 1.0, "cpu_time": 1.0,
     "time_unit": "ns"}
  ]
})";

gbx::detail::RunRecord sample_record() {
  gbx::detail::RunRecord r;
  r.id = 4;
  r.benchmark = "reduce/naive";
  r.args = {4096};
  r.problem = "reduce/n=4096";
  r.variant = "naive";
  r.region = "cpu";
  r.flops_per_run = 4096.0;
  r.bytes_per_run = 16384.0;
  r.seed = 42;
  gbx::detail::Measurement& m = r.measurement;
  m.samples = {2.5e-6, std::numeric_limits<double>::infinity(), 2.25e-6};
  m.batch = 3;
  m.warmup_runs = 10;
  m.calibration_runs = 4;
  m.flushes = 0;
  m.timer_resolution_seconds = 2e-8;
  m.timer = gbx::detail::TimerKind::cpu;
  m.wall_seconds = 0.5;
  m.cpu_seconds_per_run = 3.5e-6;
  m.sampling_seconds = 0.375;
  m.sample_bound_reached = true;
  r.stopping.rule = "target_rel_ci";
  r.stopping.target_rel_ci = 0.05;
  r.stopping.reached = false;
  r.stopping.achieved_rel_ci = 0.125;
  return r;
}

gbx::RecordHeader sample_header() {
  gbx::RecordHeader h;
  h.run_id = "01234567-89ab-4cde-8f01-23456789abcd";
  h.created_utc = "2026-11-30T04:17:41Z";
  h.command = {"bench_reduce", "--gbx_warmup=10"};
  h.protocol.warmup_runs = 10;
  h.protocol.min_samples = 3;
  h.protocol.max_samples = 9;
  h.protocol.max_time_seconds = std::numeric_limits<double>::infinity();
  h.protocol.cache = gbx::detail::CacheMode::cold;
  return h;
}

TEST(BuildRecord, KeepsEveryGoogleBenchmarkKey) {
  const std::vector<std::optional<gbx::detail::RunRecord>> entries = {sample_record(), sample_record(), std::nullopt};
  const json record = gbx::build_record(kGoogleBenchmarkJson, entries, sample_header());
  const json original = json::parse(gbx::replace_non_finite_with_null(kGoogleBenchmarkJson));
  EXPECT_EQ(record.at("context"), original.at("context"));
  ASSERT_EQ(record.at("benchmarks").size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const json& before = original["benchmarks"][i];
    const json& after = record["benchmarks"][i];
    for (const auto& [key, value] : before.items()) EXPECT_EQ(after.at(key), value) << i << " " << key;
    // Nothing but gbx is added.
    EXPECT_EQ(after.size(), before.size() + (entries[i] ? 1 : 0)) << i;
  }
  EXPECT_TRUE(record["benchmarks"][0].at("odd").is_null());
  EXPECT_EQ(record.size(), original.size() + 1);
}

TEST(BuildRecord, AddsGbxAtTheTop) {
  const json record =
      gbx::build_record(kGoogleBenchmarkJson, {std::nullopt, std::nullopt, std::nullopt}, sample_header());
  const json& g = record.at("gbx");
  EXPECT_EQ(g.at("schema_version"), 1);
  EXPECT_EQ(g.at("run_id"), "01234567-89ab-4cde-8f01-23456789abcd");
  EXPECT_EQ(g.at("created_utc"), "2026-11-30T04:17:41Z");
  EXPECT_EQ(g.at("command"), json({"bench_reduce", "--gbx_warmup=10"}));
  const json& p = g.at("protocol");
  EXPECT_EQ(p.at("warmup_runs"), 10);
  EXPECT_EQ(p.at("min_samples"), 3);
  EXPECT_EQ(p.at("max_samples"), 9);
  EXPECT_TRUE(p.at("max_time_seconds").is_null());  // infinity has no JSON form
  EXPECT_EQ(p.at("cache"), "cold");
  EXPECT_EQ(p.at("batch_resolution_factor"), 100.0);
  EXPECT_TRUE(p.at("target_rel_ci").is_null());     // off
  EXPECT_TRUE(p.at("min_time_seconds").is_null());  // off
  EXPECT_EQ(g.at("interrupted"), false);
  EXPECT_EQ(g.at("environment"), json::object());
  for (const auto& b : record.at("benchmarks")) EXPECT_FALSE(b.contains("gbx"));
}

TEST(BuildRecord, HeaderInterruptedTargetAndEnvironment) {
  gbx::RecordHeader header = sample_header();
  header.interrupted = true;
  header.protocol.target_rel_ci = 0.05;
  header.protocol.min_time_seconds = 0.25;
  header.environment = {{"host", "vm"}};
  const json record = gbx::build_record(kGoogleBenchmarkJson, {std::nullopt, std::nullopt, std::nullopt}, header);
  EXPECT_EQ(record.at("gbx").at("interrupted"), true);
  EXPECT_EQ(record.at("gbx").at("protocol").at("target_rel_ci"), 0.05);
  EXPECT_EQ(record.at("gbx").at("protocol").at("min_time_seconds"), 0.25);
  EXPECT_EQ(record.at("gbx").at("environment"), json({{"host", "vm"}}));
}

TEST(BuildRecord, LeavesOutInterruptedEntries) {
  gbx::detail::RunRecord interrupted = sample_record();
  interrupted.interrupted = true;
  interrupted.error = "interrupted";
  const json record =
      gbx::build_record(kGoogleBenchmarkJson, {sample_record(), std::nullopt, interrupted}, sample_header());
  const json& benchmarks = record.at("benchmarks");
  ASSERT_EQ(benchmarks.size(), 2u);
  EXPECT_EQ(benchmarks[0].at("name"), "reduce/naive/n:4096/iterations:1/manual_time");
  EXPECT_TRUE(benchmarks[0].contains("gbx"));
  EXPECT_EQ(benchmarks[1].at("name"), "reduce/naive/n:4096/iterations:1/manual_time_mean");
  EXPECT_FALSE(benchmarks[1].contains("gbx"));
}

TEST(BuildRecord, AddsGbxToEachEntry) {
  const std::vector<std::optional<gbx::detail::RunRecord>> entries = {sample_record(), sample_record(), std::nullopt};
  const json record = gbx::build_record(kGoogleBenchmarkJson, entries, sample_header());
  const json& g = record["benchmarks"][0].at("gbx");
  EXPECT_EQ(g.at("problem"), "reduce/n=4096");
  EXPECT_EQ(g.at("variant"), "naive");
  EXPECT_EQ(g.at("region"), "cpu");
  EXPECT_EQ(g.at("declared").at("flops_per_run"), 4096.0);
  EXPECT_EQ(g.at("declared").at("bytes_per_run"), 16384.0);
  EXPECT_EQ(g.at("declared").at("seed"), 42);
  EXPECT_EQ(g.at("skipped"), false);
  const json& m = g.at("measurement");
  EXPECT_EQ(m.at("timer"), "cpu");
  EXPECT_EQ(m.at("timer_resolution_seconds"), 2e-8);
  EXPECT_EQ(m.at("cache"), "hot");
  EXPECT_EQ(m.at("batch"), 3);
  EXPECT_EQ(m.at("warmup_runs"), 10);
  EXPECT_EQ(m.at("calibration_runs"), 4);
  EXPECT_EQ(m.at("flushes"), 0);
  EXPECT_EQ(m.at("wall_seconds"), 0.5);
  EXPECT_EQ(m.at("cpu_seconds_per_run"), 3.5e-6);
  EXPECT_EQ(m.at("sampling_seconds"), 0.375);
  EXPECT_EQ(m.at("time_bound_reached"), false);
  EXPECT_EQ(m.at("sample_bound_reached"), true);
  EXPECT_EQ(m.at("below_resolution"), false);
  const json& stopping = m.at("stopping");
  EXPECT_EQ(stopping.at("rule"), "target_rel_ci");
  EXPECT_EQ(stopping.at("target_rel_ci"), 0.05);
  EXPECT_TRUE(stopping.at("min_time_seconds").is_null());  // not asked
  EXPECT_EQ(stopping.at("reached"), false);
  EXPECT_EQ(stopping.at("achieved_rel_ci"), 0.125);
  EXPECT_EQ(g.at("samples"), json({2.5e-6, nullptr, 2.25e-6}));  // the infinite sample is null
  // The aggregate names its problem, but the samples belong to the repetitions.
  const json& aggregate = record["benchmarks"][1].at("gbx");
  EXPECT_EQ(aggregate.at("problem"), "reduce/n=4096");
  EXPECT_FALSE(aggregate.contains("samples"));
  EXPECT_FALSE(aggregate.contains("measurement"));
  EXPECT_FALSE(record["benchmarks"][2].contains("gbx"));
  // The whole record serialises to strict JSON.
  EXPECT_TRUE(json::accept(record.dump()));
}

TEST(BuildRecord, FixedCountStoppingHasNullTargetAndUnknownPrecision) {
  gbx::detail::RunRecord fixed = sample_record();
  fixed.stopping = gbx::detail::StoppingOutcome{};
  fixed.stopping.reached = true;
  const json record = gbx::build_record(kGoogleBenchmarkJson, {fixed, std::nullopt, std::nullopt}, sample_header());
  const json& stopping = record["benchmarks"][0]["gbx"]["measurement"].at("stopping");
  EXPECT_EQ(stopping.at("rule"), "min_samples");
  EXPECT_TRUE(stopping.at("target_rel_ci").is_null());
  EXPECT_EQ(stopping.at("reached"), true);
  EXPECT_TRUE(stopping.at("achieved_rel_ci").is_null());
}

TEST(BuildRecord, AMinTimeIsTheStoppingGoalToo) {
  gbx::detail::RunRecord spanned = sample_record();
  spanned.stopping = gbx::detail::StoppingOutcome{};
  spanned.stopping.min_time_seconds = 0.5;
  const json record = gbx::build_record(kGoogleBenchmarkJson, {spanned, std::nullopt, std::nullopt}, sample_header());
  const json& stopping = record["benchmarks"][0]["gbx"]["measurement"].at("stopping");
  EXPECT_EQ(stopping.at("min_time_seconds"), 0.5);
  EXPECT_EQ(stopping.at("reached"), false);
}

TEST(BuildRecord, FailedEntriesHaveNoMeasurementAndSkippedOnesAreNotEntries) {
  gbx::detail::RunRecord failed = sample_record();
  failed.error = "kernel failed";
  gbx::detail::RunRecord skipped = sample_record();
  skipped.skipped = true;
  skipped.error = "skipped: no device";
  const json record = gbx::build_record(kGoogleBenchmarkJson, {failed, skipped, std::nullopt}, sample_header());
  ASSERT_EQ(record["benchmarks"].size(), 2u) << "the skipped entry moves to gbx.not_run";
  const json& g = record["benchmarks"][0].at("gbx");
  EXPECT_EQ(g.at("skipped"), false);
  EXPECT_FALSE(g.contains("measurement"));
  EXPECT_FALSE(g.contains("samples"));
  EXPECT_EQ(record["gbx"].at("not_run").size(), 1u);
}

TEST(BuildRecord, ThrowsWhenEntryCountsMismatch) {
  EXPECT_THROW(gbx::build_record(kGoogleBenchmarkJson, {std::nullopt, std::nullopt}, sample_header()),
               std::logic_error);
  EXPECT_THROW(
      gbx::build_record(kGoogleBenchmarkJson, std::vector<std::optional<gbx::detail::RunRecord>>(4), sample_header()),
      std::logic_error);
}

TEST(BuildRecord, NoBenchmarksAtAll) {
  const json record = gbx::build_record(R"({"context": {}})", {}, sample_header());
  EXPECT_TRUE(record.at("benchmarks").is_array());
  EXPECT_TRUE(record.at("benchmarks").empty());
  EXPECT_THROW(gbx::build_record(R"({"context": {}})", {sample_record()}, sample_header()), std::logic_error);
}

// A fresh, empty directory under the system's temporary directory, removed afterwards.
class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "gbx-json-record-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> names() const {
    std::vector<std::string> result;
    for (const auto& entry : fs::directory_iterator(dir_)) result.push_back(entry.path().filename().string());
    return result;
  }
  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  fs::path dir_;
};

using WriteFileAtomically = TempDir;

TEST_F(WriteFileAtomically, WritesTheContentAndLeavesNoTemporary) {
  const fs::path path = dir_ / "record.json";
  const std::string content = "{\"a\": 1}\n" + std::string(100000, 'x');
  gbx::write_file_atomically(path.string(), content);
  EXPECT_EQ(read(path), content);
  EXPECT_EQ(names(), std::vector<std::string>{"record.json"});
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);  // readable as an ordinary file, not mkstemp's 0600
}

TEST_F(WriteFileAtomically, ReplacesAnExistingFile) {
  const fs::path path = dir_ / "record.json";
  gbx::write_file_atomically(path.string(), "old old old");
  gbx::write_file_atomically(path.string(), "new");
  EXPECT_EQ(read(path), "new");
  EXPECT_EQ(names(), std::vector<std::string>{"record.json"});
}

TEST_F(WriteFileAtomically, EmptyContent) {
  const fs::path path = dir_ / "empty";
  gbx::write_file_atomically(path.string(), "");
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(fs::file_size(path), 0u);
}

TEST_F(WriteFileAtomically, ThrowsForAMissingDirectory) {
  const fs::path path = dir_ / "missing" / "record.json";
  try {
    gbx::write_file_atomically(path.string(), "x");
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find((dir_ / "missing").string()), std::string::npos) << error.what();
  }
  EXPECT_TRUE(names().empty());
}

using CheckWritable = TempDir;

TEST_F(CheckWritable, AcceptsAWritablePathAndLeavesNothing) {
  EXPECT_NO_THROW(gbx::check_writable((dir_ / "out.json").string()));
  EXPECT_TRUE(names().empty());
}

TEST_F(CheckWritable, LeavesAnExistingFileAlone) {
  const fs::path path = dir_ / "out.json";
  gbx::write_file_atomically(path.string(), "keep me");
  EXPECT_NO_THROW(gbx::check_writable(path.string()));
  EXPECT_EQ(read(path), "keep me");
  EXPECT_EQ(names(), std::vector<std::string>{"out.json"});
}

// An existing directory must fail the check: a temporary file can be created beside it, and the
// rename onto it would fail only after every benchmark had run, losing the record.
TEST_F(CheckWritable, RejectsADirectory) {
  fs::create_directory(dir_ / "a_directory");
  EXPECT_THROW(gbx::check_writable((dir_ / "a_directory").string()), std::runtime_error);
}

TEST(CheckWritableMissing, ThrowsNamingTheDirectory) {
  try {
    gbx::check_writable("/nonexistent/dir/file");
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/dir"), std::string::npos) << error.what();
  }
}

}  // namespace

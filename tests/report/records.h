#pragma once

// Small hand-made records for the report tests: plain Google Benchmark JSON, and sealed gbx records
// with the keys the report reads (docs/json-format.md), written to files named after the test.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "record/checksum.h"
#include "tests/support/complete_record.h"

namespace report_test {

using json = nlohmann::json;

// One repetition of a gbx benchmark.
struct Entry {
  std::string name;
  std::string problem;
  std::string variant;
  std::vector<double> samples;  // seconds
  std::optional<double> error = 1e-7;
  bool passed = true;
  std::optional<double> memory = 4096;
  std::optional<double> gflops;  // at the repetition's median
  std::optional<double> arithmetic_intensity;
  std::optional<double> gbytes;
  std::string cache = "hot";
  std::vector<std::string> flags;
  // The recorded median interval; when absent, a plain [min, max] stands in.
  std::optional<std::pair<double, double>> median_ci;
  // > 1: the samples come from this many processes, in consecutive groups as equal as can be
  // (gbx.process_samples), so that a comparison uses the process as its unit.
  std::size_t processes = 1;
};

// An entry with the defaults above; aggregate initialisation would leave members unnamed.
inline Entry entry(const std::string& name, const std::string& problem, const std::string& variant,
                   std::vector<double> samples) {
  Entry e;
  e.name = name;
  e.problem = problem;
  e.variant = variant;
  e.samples = std::move(samples);
  return e;
}

// `count` samples around `center`, spread by +/- `spread` relative, deterministic.
inline std::vector<double> samples_around(double center, std::size_t count = 20, double spread = 0.01) {
  std::vector<double> samples;
  for (std::size_t i = 0; i < count; ++i) {
    samples.push_back(center * (1.0 + spread * (static_cast<double>((i * 7) % 11) / 5.0 - 1.0)));
  }
  return samples;
}

inline double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

inline json gbx_entry(const Entry& e) {
  const double median = median_of(e.samples);
  const auto [low, high] = std::minmax_element(e.samples.begin(), e.samples.end());
  const auto ci = e.median_ci.value_or(std::make_pair(*low, *high));
  json flags = json::array();
  for (const auto& f : e.flags) flags.push_back({{"flag", f}, {"value", 1.0}, {"message", f + " seen"}});
  json accuracy = nullptr;
  if (e.error) {
    accuracy = {{"rel_l2_error", *e.error}, {"passed", e.passed}, {"tolerance", 1e-4}, {"reference", "float64"}};
  }
  json throughput = json::object();
  if (e.gflops || e.gbytes) {
    throughput = {{"gflops_per_second", e.gflops ? json(*e.gflops) : json(nullptr)},
                  {"gbytes_per_second", e.gbytes ? json(*e.gbytes) : json(nullptr)},
                  {"arithmetic_intensity", e.arithmetic_intensity ? json(*e.arithmetic_intensity) : json(nullptr)},
                  {"peak_flops_per_second", 100e9},
                  {"peak_bytes_per_second", 50e9},
                  {"fraction_of_peak_flops", e.gflops ? json(*e.gflops / 100.0) : json(nullptr)},
                  {"fraction_of_peak_bandwidth", e.gbytes ? json(*e.gbytes / 50.0) : json(nullptr)},
                  {"fraction_of_peak", std::max(e.gflops.value_or(0) / 100.0, e.gbytes.value_or(0) / 50.0)}};
  }
  json entry = {
      {"name", e.name},
      {"run_name", e.name},
      {"run_type", "iteration"},
      {"iterations", 1},
      {"real_time", median * 1e6},
      {"cpu_time", median * 1e6},
      {"time_unit", "us"},
      {"gbx",
       {{"problem", e.problem},
        {"variant", e.variant},
        {"region", "cpu"},
        {"precision", "fp32"},
        {"measurement", {{"timer", "cpu"}, {"cache", e.cache}}},
        {"samples", e.samples},
        {"stats",
         {{"count", e.samples.size()},
          {"median", median},
          {"cv", 0.01},
          {"p99", *high},
          {"median_ci", {{"lower", ci.first}, {"upper", ci.second}, {"level", 0.95}, {"method", "bootstrap_bca"}}}}},
        {"accuracy", accuracy},
        {"memory", {{"host_peak_bytes", e.memory ? json(*e.memory) : json(nullptr)}, {"device_peak_bytes", nullptr}}},
        {"throughput", throughput},
        {"flags", flags}}}};
  if (e.processes > 1) {
    json groups = json::array();
    for (std::size_t p = 0; p < e.processes; ++p) {
      const std::size_t begin = p * e.samples.size() / e.processes;
      const std::size_t end = (p + 1) * e.samples.size() / e.processes;
      groups.push_back({{"process", p}, {"count", end - begin}});
    }
    entry["gbx"]["process_samples"] = groups;
  }
  return entry;
}

// A schema-valid run id (a UUID v4) that carries a test's label in its last 12 hex digits.
inline std::string test_uuid(const std::string& label) {
  static const char* hex = "0123456789abcdef";
  std::string digits;
  for (const char c : label) {
    digits += hex[(static_cast<unsigned char>(c) >> 4) & 0xF];
    digits += hex[static_cast<unsigned char>(c) & 0xF];
  }
  digits = digits.size() >= 12 ? digits.substr(digits.size() - 12) : std::string(12 - digits.size(), '0') + digits;
  return "00000000-0000-4000-8000-" + digits;
}

inline json gbx_record(const std::vector<Entry>& entries, const std::string& run_id, const std::string& created,
                       const std::string& cache = "hot") {
  json benchmarks = json::array();
  for (const auto& e : entries) benchmarks.push_back(gbx_entry(e));
  json record = {
      {"context", {{"date", created}, {"caches", json::array()}}},
      {"benchmarks", benchmarks},
      {"gbx",
       {{"schema_version", 1},
        {"run_id", test_uuid(run_id)},
        {"created_utc", created},
        {"protocol",
         {{"cache", cache},
          {"warmup_runs", 10},
          {"min_samples", 20},
          {"max_samples", 100},
          {"max_time_seconds", 10.0},
          {"target_rel_ci", nullptr},
          {"batch_resolution_factor", 100.0}}},
        {"environment",
         {{"host",
           {{"hostname", "node-a"},
            {"cpu_model", "Test CPU"},
            {"logical_cpus", 8},
            {"virtualization", {{"guest", true}, {"evidence", json::array({"/proc/cpuinfo flags: hypervisor"})}}},
            {"kernel_parameters", {"pti=on", "tsc=reliable"}},
            {"clocksource", "kvm-clock"},
            {"transparent_hugepage", "madvise"}}},
          {"build", {{"build_type", "Release"}, {"google_benchmark", "1.7.1"}, {"compiler", "GNU 12.2.0"}}},
          {"source", {{"commit", "0123456789abcdef"}, {"dirty", false}}},
          {"gpus", json::array()}}}}}};
  record = gbx_test::complete_record(record);
  gbx::seal_record(record);
  return record;
}

// One benchmark that could not run on the recording machine (gbx.not_run, docs/json-format.md).
struct NotRun {
  std::string name;
  std::string problem;
  std::string variant;
  std::string reason;
  std::string reason_code;
};

// The record with `items` under gbx.not_run, sealed again.
inline json with_not_run(json record, const std::vector<NotRun>& items) {
  json list = json::array();
  for (const auto& n : items) {
    const std::string stem = n.name.substr(0, n.name.find("/iterations:1/manual_time"));  // gbx's suffix
    list.push_back({{"name", n.name},
                    {"family", stem.substr(0, stem.rfind('/'))},
                    {"problem", n.problem},
                    {"variant", n.variant},
                    {"reason", n.reason},
                    {"reason_code", n.reason_code}});
  }
  record["gbx"]["not_run"] = list;
  record["gbx"].erase("checksum");
  record = gbx_test::complete_record(record);
  gbx::seal_record(record);
  return record;
}

// The record with a benchmark that could not run listed among `benchmarks`, as records from before
// gbx.not_run did (error_occurred, gbx.skipped), sealed again.
inline json with_skipped_entry(json record, const NotRun& n) {
  record["benchmarks"].push_back(
      {{"name", n.name},
       {"run_name", n.name},
       {"run_type", "iteration"},
       {"error_occurred", true},
       {"error_message", "skipped: " + n.reason},
       {"iterations", 0},
       {"real_time", 0},
       {"cpu_time", 0},
       {"time_unit", "us"},
       {"gbx", {{"problem", n.problem}, {"variant", n.variant}, {"region", "device"}, {"skipped", true}}}});
  record["gbx"].erase("checksum");
  record = gbx_test::complete_record(record);
  gbx::seal_record(record);
  return record;
}

// Plain Google Benchmark JSON: each name repeated, each repetition's real_time (ns) one value.
inline json plain_record(const std::vector<std::pair<std::string, std::vector<double>>>& names,
                         const std::string& date = "2026-01-02T03:04:05+00:00") {
  json benchmarks = json::array();
  for (const auto& [name, times] : names) {
    for (std::size_t i = 0; i < times.size(); ++i) {
      benchmarks.push_back({{"name", name},
                            {"run_name", name},
                            {"run_type", "iteration"},
                            {"repetitions", times.size()},
                            {"repetition_index", i},
                            {"iterations", 1000},
                            {"real_time", times[i]},
                            {"cpu_time", times[i]},
                            {"time_unit", "ns"}});
    }
    benchmarks.push_back({{"name", name + "_mean"},
                          {"run_name", name},
                          {"run_type", "aggregate"},
                          {"aggregate_name", "mean"},
                          {"iterations", times.size()},
                          {"real_time", 1.0},
                          {"cpu_time", 1.0},
                          {"time_unit", "ns"}});
  }
  return {{"context", {{"date", date}, {"host_name", "h"}, {"num_cpus", 4}, {"caches", json::array()}}},
          {"benchmarks", benchmarks}};
}

// Writes the record to a file named after the running test, so that tests run in parallel never share one.
inline std::string write(const json& record, const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path =
      ::testing::TempDir() + "report_" + info->test_suite_name() + "_" + info->name() + "_" + name + ".json";
  std::ofstream(path) << record.dump(2);
  return path;
}

}  // namespace report_test

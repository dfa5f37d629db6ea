#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gbx::tools {

// A record that cannot be used; what() names the file and the fault.
class BadRecord : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One benchmark of a record, by name: its samples in seconds and what the gate compares.
struct LoadedBenchmark {
  std::string name;
  std::vector<double> samples;  // gbx samples of every repetition, or Google Benchmark's per-repetition times
  std::string problem;          // empty for plain Google Benchmark JSON
  std::string variant;
  std::map<std::string, std::string> protocol;  // per-benchmark facts the gate compares (precision, cache...)
};

struct LoadedRecord {
  std::string path;
  nlohmann::json json;
  bool has_gbx = false;                     // false: plain Google Benchmark JSON, with fewer facts
  std::vector<LoadedBenchmark> benchmarks;  // in the record's order, one per name
};

// Reads, parses and checks a record: valid JSON without NaN or Infinity, the keys and types every
// consumer needs, schema_version 1 and an intact checksum when there is a gbx section, finite
// samples, and at least one benchmark. Throws BadRecord.
LoadedRecord load_record(const std::string& path);

}  // namespace gbx::tools

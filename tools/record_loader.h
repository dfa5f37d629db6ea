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
  // The same samples grouped by process, in process index order (gbx.process_samples; absent: one
  // group). Repetitions of one name add to their process's group.
  std::vector<std::vector<double>> process_samples;
  // One sample's tick: measurement.timer_resolution_seconds / measurement.batch, the largest over the
  // repetitions; 0 when unknown (plain Google Benchmark JSON).
  double resolution_seconds = 0.0;
};

// One entry of gbx.process_samples: `count` consecutive samples came from process `process`.
struct ProcessGroup {
  std::size_t process = 0;
  std::size_t count = 0;
};

// The process groups of one benchmark entry's gbx object, in order: gbx.process_samples, or one group
// (process 0) holding all sample_count samples when absent. Throws BadRecord naming the file and
// `where` when it is not an array of {process, count} with non-negative integers summing to sample_count.
std::vector<ProcessGroup> read_process_groups(const std::string& path, const std::string& where,
                                              const nlohmann::json& gbx_entry, std::size_t sample_count);

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

#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

// The one reader of records, shared by every gbx command and by the Pareto analysis: it parses a
// record strictly, checks it against the record schema (record/record_schema.h) and its seal, and
// returns what the consumers read, typed. A record it refuses throws BadRecord naming the file and
// the fault; the commands print that and exit 2.

namespace gbx {

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
  // gbx.axes as compact JSON, keys sorted (the short form's parameter axes); empty when absent.
  std::string axes;
  nlohmann::json problem_axes;  // gbx.axes less gbx.variant_axes: the tuple that names the problem; null when absent
  std::map<std::string, std::string> protocol;  // per-benchmark facts the gate compares (precision, cache...)
  // The same samples grouped by process, in process index order (gbx.process_samples; absent: one
  // group). Repetitions of one name add to their process's group.
  std::vector<std::vector<double>> process_samples;
  // One sample's tick: measurement.timer_resolution_seconds / measurement.batch, the largest over the
  // repetitions; 0 when unknown (plain Google Benchmark JSON).
  double resolution_seconds = 0.0;
  // What the Pareto analysis reads (analysis/pareto.h). problem is empty for plain Google Benchmark JSON.
  bool has_problem = false;  // gbx.problem is present, and no repetition says gbx.skipped
  // Over the repetitions: the worst accuracy error and memory peak, absent when one lacks it.
  std::optional<double> error;                // gbx.accuracy.rel_l2_error
  std::string memory_kind;                    // "host_peak_bytes" (region cpu) or "device_peak_bytes"
  std::optional<double> memory_bytes;         // gbx.memory.<memory_kind>
  std::optional<double> energy_joules;        // gbx.energy.<cpu for region cpu, else gpu>.joules_per_run
  std::optional<double> throughput_at_bound;  // gbx.load.throughput_at_bound_per_second (docs/load.md)
  bool accuracy_failed = false;               // some repetition has gbx.accuracy.passed == false
  std::string failure;                        // why, in words, for the first repetition that failed
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

// Whether a gbx record must carry an intact seal: a record on disk must; one being written is sealed
// only after its Pareto section, which is computed from it.
enum class SealRequirement { intact, not_yet_sealed };

// Checks a parsed record and reads it: the keys and types every consumer needs, schema_version 1, the
// record schema and (as `seal` says) an intact checksum when there is a gbx section, finite samples,
// and at least one benchmark. `source` names the record in messages. Throws BadRecord.
LoadedRecord read_record(nlohmann::json json, const std::string& source,
                         SealRequirement seal = SealRequirement::intact);

// Reads a record file: parse_record_file, then read_record. Throws BadRecord.
LoadedRecord load_record(const std::string& path);

// The reader's first step alone, for `gbx verify`, which judges the seal only: the file, parsed as
// strict JSON (record/json_parse.h). Throws BadRecord.
nlohmann::json parse_record_file(const std::string& path);

}  // namespace gbx

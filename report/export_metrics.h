#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "record/record_reader.h"

// What `gbx export` hands to a dashboard, read once from a record and then written in each consumer's
// format (report/export_bencher.h, export_github.h, export_conbench.h; docs/dashboards.md). A metric
// the record lacks is absent here, never 0, and a benchmark that did not run (gbx.not_run, an error,
// an old record's gbx.skipped) is not here at all: a dashboard would draw it as a 0 s result.

namespace gbx::tools {

// A record that cannot be exported as asked (two benchmarks of one name, records of two machines in a
// format that names one); what() names the files. The command prints it and exits 2.
class ExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// item_rate is a plain Google Benchmark benchmark's items_per_second (SetItemsProcessed): its items are
// whatever its author counts. A gbx benchmark's items_per_second holds its FLOP/s, so it is flop_rate;
// one kind never stands for the other.
enum class MetricKind { latency, flop_rate, item_rate, byte_rate, energy, error, peak_memory };

// Whether a smaller value is the better one: latency, energy, error and memory are; the rates are not.
bool smaller_is_better(MetricKind kind);

struct ExportedMetric {
  MetricKind kind = MetricKind::latency;
  double value = 0.0;  // SI units: seconds, FLOP/s, items/s, bytes/s, joules per run, a ratio, bytes
  std::optional<double> lower;
  std::optional<double> upper;
  double level = 0.95;  // of [lower, upper], when present
  std::string method;   // how the interval was found ("log-t-process-medians", "bootstrap_bca", ...)
  std::string note;     // what the value is, in words: "process-level median over 5 processes"
};

// A user counter of a benchmark's row (state.counters["elements"]): a number with no unit or direction
// that gbx knows, exported under its own name.
struct ExportedCounter {
  std::string name;
  double value = 0.0;  // the row's value (for a plain benchmark the median over its samples); finite
};

struct ExportedBenchmark {
  std::string name;            // the dashboard's: the shown name, with the axes it does not carry
  std::string benchmark_name;  // Google Benchmark's
  std::string problem;         // empty for plain Google Benchmark JSON
  std::string variant;
  std::vector<std::pair<std::string, std::string>> axes;  // gbx.axes, in the record's order; may be empty
  std::string region, precision, cache;
  std::vector<double> latency_data;  // seconds: the samples, or with >= 2 processes each process's median
  bool latency_data_per_process = false;
  bool plain = false;  // measured by Google Benchmark's loop: gbx.harness "google_benchmark", or no gbx at all
  std::vector<ExportedMetric> metrics;  // in MetricKind order, each kind at most once
  // The user counters, by name; over repetitions, the median of theirs. A value that is not finite
  // (null in the record) is left out.
  std::vector<ExportedCounter> counters;
};

// The machine and the source a record was made from, as dashboards name a testbed.
struct ExportMachine {
  std::string hostname;
  std::string cpu_model;
  std::vector<std::string> gpu_models;  // one per distinct model, in device order
  std::size_t gpu_count = 0;
  std::string commit;  // empty when the record does not say
  bool dirty = false;
  std::string branch;
  // The testbed's name: "GPU model / CPU model" (the GPU left out on a machine without one), else the
  // hostname, else "unknown".
  std::string testbed() const;
};

struct ExportRun {
  std::string path;
  std::string run_id;   // empty for plain Google Benchmark JSON
  std::string created;  // gbx.created_utc, else context.date
  ExportMachine machine;
  std::vector<ExportedBenchmark> benchmarks;  // in the record's order
  const nlohmann::json* record = nullptr;     // the record's JSON, for the consumer that wants more facts
};

// Reads a loaded record; the record must outlive the run. Throws ExportError when two measured
// benchmarks end up with one dashboard name and one Google Benchmark name (a record never has that).
ExportRun export_run(const LoadedRecord& record);

// The runs' one testbed and commit, for the formats that take one per upload (Bencher, the GitHub
// action). Throws ExportError naming the files when the records disagree, or when a dashboard name
// appears in two of them.
const ExportMachine& common_machine(const std::vector<ExportRun>& runs);

// The metric's name in the files ("latency", "flop-rate", "item-rate", "byte-rate", "energy",
// "relative-error", "peak-memory"): lower case and short, within Bencher's 64-character measure slug.
const char* metric_slug(MetricKind kind);

// Whether a key of a benchmarks[] row is a user counter: not one of Google Benchmark's own keys (its
// JSON reporter's name, times, iterations, complexity and memory-manager keys), not gbx's object or
// the counts gbx adds to every row (samples, batch), and not items_per_second or bytes_per_second,
// which are exported as rates.
bool is_user_counter_key(const std::string& key);

}  // namespace gbx::tools

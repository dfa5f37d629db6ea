#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/load_plan.h"

namespace gbx::detail {

// rotate: batched like hot, but each run finds its inputs in a different one of enough copies that
// they are out of the last-level cache (docs/adding-a-kernel.md).
enum class CacheMode { hot, cold, rotate };

const char* to_string(CacheMode mode);

// How every benchmark of a run is measured; the record declares it.
struct Protocol {
  std::int64_t warmup_runs = 10;
  // --gbx_warmup=auto: warm up until steady (extensions/warmup.h), at most this many warm-up samples.
  bool warmup_auto = false;
  std::int64_t warmup_max_samples = 500;
  std::int64_t min_samples = 30;
  std::int64_t max_samples = 10000;
  double max_time_seconds = 10.0;
  CacheMode cache = CacheMode::hot;
  // Adaptive stopping: sample until the median's 95% interval half-width over the median is at
  // most this (0: off, take min_samples). max_samples and max_time still bound it.
  double target_rel_ci = 0.0;
  // Sample until the samples span at least this many seconds (0: off), as well as min_samples: a counter
  // that moves coarsely (a GPU's energy, every ~100 ms) needs a span of several of its steps. max_samples
  // and max_time still bound it.
  double min_time_seconds = 0.0;
  // A batch of runs must last at least this many timer resolutions.
  double batch_resolution_factor = 100.0;
  // Processes the selection runs in (--gbx_processes); 1 when everything runs in this process.
  std::int64_t processes = 1;
};

// A bad --gbx_* flag; what() names the flag and the value.
class FlagError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How a run is spread over processes (reporters/process_*.h).
struct ProcessOptions {
  bool isolated = false;                    // --gbx_processes given: the benchmarks run in child processes
  std::optional<std::uint64_t> order_seed;  // --gbx_order_seed; drawn at random when absent
  double benchmark_timeout_seconds = 0.0;   // --gbx_benchmark_timeout; 0: none
  std::string progress = "auto";            // --gbx_progress: auto, on or off
  // Set by a parent for its children, never by hand: the descriptor the child reports on, and the
  // indices (into the selection, in Google Benchmark's order) of what it runs, in that order.
  int child_fd = -1;
  std::vector<std::int64_t> child_order;
  int describe_fd = -1;  // --gbx_describe: report the selection and the environment, run nothing
};

struct CommandLine {
  Protocol protocol;
  ProcessOptions processes;
  std::string out_dir;                   // --gbx_out_dir: where the record is written, empty for none
  bool list_not_run = false;             // --gbx_list_not_run: name each benchmark that could not run here
  LoadFlags load;                        // --gbx_concurrency and friends (docs/load.md)
  std::vector<std::string> axes;         // --gbx_axis=NAME=VALUES, once per axis (extensions/axes.h parses them)
  std::vector<std::string> passthrough;  // everything else, in order, for Google Benchmark
};

// Takes the --gbx_* flags out of args (argv without argv[0]); throws FlagError on a bad one.
CommandLine parse_command_line(const std::vector<std::string>& args);

// Usage text for the --gbx_* flags.
std::string flags_help();

// The protocol the running benchmarks follow; set once by the driver before they run.
const Protocol& active_protocol();
void set_active_protocol(const Protocol& protocol);

}  // namespace gbx::detail

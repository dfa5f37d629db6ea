#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "ab/records.h"

namespace gbx::tools {

// The default number of processes per side of `gbx ab` (README, "Processes").
constexpr std::int64_t kDefaultAbProcesses = 6;

struct AbOptions {
  std::string base;       // the baseline bench binary
  std::string candidate;  // the candidate bench binary; the same one twice is an A/A check
  std::int64_t processes = kDefaultAbProcesses;
  std::optional<std::uint64_t> seed;  // of the pair orders and of each process's benchmark order
  std::string format = "console";     // of the comparison: console, markdown or json
  std::string out_dir = ".";          // where both records are written
  std::string progress = "auto";
  double benchmark_timeout_seconds = 0.0;
  double noise_band = 0.02;
  double fdr = 0.05;
  bool allow_incompatible = false;
  std::vector<std::string> bench_args;  // after "--": flags for both binaries
  // The interleaved design (ab/interleaved.h, docs/gating.md), the default; false: the
  // whole-process design (--whole-processes), K processes per side run one after the other.
  bool interleaved = true;
  std::string budget = "120s";                   // --budget: the interleaved run's time budget, or auto
  std::string max_budget = "30m";                // --max-budget: the most --budget=auto may plan
  double target_mde = 0.0;                       // --target-mde: what auto plans for (0: the equivalence margin)
  double equivalence = 0.02;                     // --equivalence: the margin of "same"
  std::string pair_test = "weighted-sign-flip";  // --pair-test: across worker pairs (docs/gating-statistics.md)
  std::int64_t blocks_per_pair = 2;              // --blocks: block pairs per worker pair, one of each order
  bool blocks_given = false;                     // --blocks given: fixed; else planned again at each look
  std::string affinity = "auto";                 // --affinity: the one CPU of every worker (processes/cpu_affinity.h)
  std::string pair_memory = "shared";            // --pair-memory: shared or private (processes/pair_memory_directory.h)
  std::string pair_memory_root = "/dev/shm";     // --pair-memory-dir: the tmpfs that holds them
  std::string base_filter, candidate_filter;     // two variants of one binary (then base == candidate)
  bool futility = true;                          // --futility: stop the rows the budget left cannot decide
  bool processes_given = false;                  // --processes given: the most worker pairs
  bool noise_band_given = false;                 // else the interleaved design's own band (0.5%)
};

// The checks both designs share (format, binaries, bench flags, output directory): 0 when fine, else
// the message written to err and 2.
int check_ab_options(const AbOptions& options, std::ostream& err);

// What a run of `gbx ab` leaves for the command to print.
struct AbResult {
  // Set where the run ended before a comparison: 2 bad input or incompatible binaries, 3 the analysis
  // failed or the records could not be read back, 128 + the signal when interrupted (both records keep
  // what finished). The messages are already on err.
  std::optional<int> exit_code;
  std::string paths[2];         // the records written: base, candidate
  PairedComparison comparison;  // the interleaved design's; the whole-process design's is `gbx compare`'s
};

// A run that ended with `code` before a comparison.
inline AbResult ab_ended(int code) {
  AbResult result;
  result.exit_code = code;
  return result;
}

// The whole-process design (--whole-processes): K processes of each binary alternately, in randomized
// pairs (base first or candidate first, by a coin the seed decides); writes both K-process records,
// which the command then compares as `gbx compare` does.
AbResult run_whole_processes(const AbOptions& options, std::ostream& err);

}  // namespace gbx::tools

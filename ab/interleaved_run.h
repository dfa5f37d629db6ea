#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ab/forecast.h"
#include "ab/options.h"
#include "ab/sides.h"
#include "model/clock.h"
#include "model/protocol.h"
#include "processes/cpu_affinity.h"
#include "processes/pair_memory_directory.h"
#include "processes/shared_inputs.h"
#include "processes/worker_malloc.h"
#include "stats/paired.h"
#include "stats/sequential.h"
#include "text/format.h"

// The interleaved design's run (ab/interleaved.h) as named phases over one state, in the manner of
// google/benchmark's BenchmarkRunner: validate, match, launch, pilot, plan, then pairs (each a
// run_pair and, at a look, a look), then write. A phase that ends the run returns its exit code.
namespace gbx::tools::interleaved {

using Clock = std::chrono::steady_clock;

inline std::string seconds_text(double s) { return format_fixed(s, s < 1 ? 2 : s < 10 ? 1 : 0) + " s"; }

// The most worker pairs a run plans (looks after 5, 10, 20, ... and at the last: look_schedule).
constexpr std::int64_t kMaxPairs = 160;
// The fewest worker pairs a run may plan: with 2 the sign-flip p is at least 0.5 and the t interval has
// one degree of freedom, so nothing could be decided.
constexpr std::int64_t kMinPairs = 3;
// A block's sampling lasts about this long: short against the drift (seconds), long against a
// block's fixed cost (its warm-up and batch calibration).
constexpr double kBlockSamplingSeconds = 0.03;
// A block after the first of its worker reuses the setup (the fixture is held between blocks), so its
// warm-up only refills the caches the other side's block evicted: the runs that fit in about this
// long, at least one (one run touches all the kernel's data), never more than declared.
constexpr double kBlockWarmupSeconds = 0.01;

class Run {
 public:
  Run(const AbOptions& options, std::ostream& err);
  AbResult run();

 private:
  using AnalysisOf = std::function<std::optional<PairedAnalysis>(const ab_sides::Row&)>;

  // Phases, in order (ab/interleaved.cc, ab/interleaved_pairs.cc).
  std::optional<int> validate();  // the flags only the interleaved design has
  std::optional<int> match();     // both sides listed and described, their rows matched
  std::optional<int> launch();    // the records' headers, pair 0's workers
  void pilot();                   // a pilot block of each row on the base: its samples and costs
  bool pilot_row(ab_sides::Row& row);
  std::optional<int> plan();  // pair 0's split and the pairs the budget buys
  void say_plan(const std::string& blocks) const;
  std::optional<int> forecast();  // each row's expected MDE; --budget=auto's budget
  void say_forecast() const;
  void run_pairs();  // worker pairs until the last look, the budget or a signal
  void run_pair();
  void run_row(std::size_t index);
  bool run_block(std::size_t index, std::int64_t block_pair, int order, int side_index);
  bool after_pair(Clock::time_point pair_started, double pair_estimate);  // true after the last look
  void look(const std::vector<AbBlock>& all, const SequentialDesign& design_of_run, bool last);
  AbResult write();  // both records, and the comparison for the command to print

  void start_pair(std::int64_t pair);
  void split_again(std::int64_t next_pair, const SequentialDesign& design_of_run, const AnalysisOf& analysis_of);
  bool any_active() const;
  std::size_t active_rows() const;

  const Clock::time_point started_ = Clock::now();
  AbOptions options_;
  std::ostream& err_;
  double budget_ = 0.0;
  bool budget_auto_ = false;  // --budget=auto: budget_ is --max-budget until forecast() plans it
  double target_mde_ = 0.0;
  std::vector<ab_sides::RowForecast> forecasts_;
  PairTest test_ = PairTest::t;
  CpuChoice cpu_;
  bool variants_ = false;
  std::uint64_t seed_ = 0;
  detail::CommandLine line_;
  // In the order the run made them, so that they are undone in the reverse order.
  std::optional<SharedInputsDirectory> shared_inputs_;    // the workers draw each random input once, not once a pair
  std::optional<WorkerMallocInHugePages> worker_malloc_;  // a worker's setup faults in 2 MiB pages, not 4 KiB ones
  // A pair's two workers on the same pages (where the machine put them cancels in the pair).
  std::optional<PairMemoryDirectories> pair_memory_;
  ab_sides::Side sides_[2];
  std::vector<std::string> listed_[2];
  std::vector<std::string> only_[2];
  std::vector<ab_sides::Row> rows_;
  std::mt19937_64 launch_coin_;
  double startup_ = 0.0;
  int pilot_signal_ = 0;
  std::int64_t cap_ = 0;
  std::int64_t first_look_ = 0;
  SequentialDesign design_at_start_;
  double per_pair_ = 0.0;
  std::int64_t planned_ = 0;
  nlohmann::json looks_ = nlohmann::json::array();
  std::mt19937_64 coin_;
  int signal_ = 0;
  std::int64_t pair_ = 0;
  // The pilot's estimate of a pair, scaled by how far the last pair's measured time departed from its
  // estimate: on a loaded machine the cost of a block grows, and the budget must see it.
  double slowdown_ = 1.0;
  // What the analysis cannot do (a defect) must not lose what was measured: both records are still
  // written, with the blocks that finished, and the run ends undecided.
  std::string analysis_failure_;
};

}  // namespace gbx::tools::interleaved

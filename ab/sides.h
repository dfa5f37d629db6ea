#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ab/options.h"
#include "ab/paired.h"
#include "processes/process_runner.h"
#include "processes/worker_client.h"
#include "stats/sequential.h"
#include "writer/process_merge.h"

// The state of `gbx ab`'s interleaved run (ab/interleaved.cc): its rows, its two sides with their
// workers and kept blocks, and each side's record built from them.
namespace gbx::tools::ab_sides {

// A block may be one sample (the plan's kMinSamplesPerBlock); the pilot block, which times a sample, has 5.
constexpr std::int64_t kMinBlockSamples = 1;
constexpr std::int64_t kPilotSamples = 5;
constexpr std::int64_t kMaxBlockSamples = 200;

// A row's split from one pair on: its samples per block and its block pairs per worker pair.
struct RowSplit {
  std::int64_t from_pair = 0;
  std::int64_t samples = kMinBlockSamples;
  std::int64_t block_pairs = 2;
};

// One row of the comparison: a benchmark both sides list, or a base variant and a candidate variant.
struct Row {
  std::string label;
  std::string names[2];  // base's, candidate's
  std::int64_t samples = kMinBlockSamples;
  std::int64_t block_pairs = 2;       // per worker pair
  std::vector<RowSplit> splits;       // each change of samples or block_pairs, from the first pair on
  std::int64_t warmup = 0;            // warm-up runs of a block (0: the declared)
  std::int64_t held_warmup_runs = 0;  // the warm-up runs that makes, the declared included
  double setup_seconds = 0.0;         // a worker's first block of the row beyond a held block (count_block_time)
  std::vector<double> setup_walls;    // that, measured on each worker's first block after the pilot
  double block_seconds = 0.0;         // one block after it, both sides alike
  double sample_seconds = 0.0;        // one sample's wall time, the pilot's
  double pilot_within_block = 0.0;    // the pilot's noise within a block (within_block_log_spread)
  // The held blocks' measured wall time, their count and their runs (warm-up and samples): what a
  // block costs beyond its runs (the order to the worker and its reply) follows.
  double blocks_wall_seconds = 0.0;
  std::int64_t blocks_timed = 0;
  std::int64_t block_runs_timed = 0;
  bool active = true;
  std::string failure;
  bool private_memory_told = false;  // a worker said once why it keeps to its own pages
  SequentialRow sequential;          // its state across looks (stats/sequential.h)
  std::int64_t stopped_at = 0;
};

struct Side {
  std::string role;
  std::string binary;
  std::vector<std::string> args;
  BinaryDescription description;
  std::unique_ptr<Worker> worker;
  std::vector<AbBlock> blocks;
  std::map<std::pair<std::size_t, std::int64_t>, ProcessOutcome> outcomes;  // (row, pair)
  std::vector<ProcessLaunch> launches;
  RecordHeader header;
  std::string path;
};

// Plans the row's next pairs again from its variance components as measured so far (`analysis`, at a
// look or between looks; plan_paired in stats/sequential.h): samples per block within
// [kMinBlockSamples, kMaxBlockSamples] and, unless blocks_fixed, block pairs per worker pair within
// [2, kMaxBlockPairsPerPair]. With one pair analysed the variance between pairs is the assumed one
// (kAssumedBetweenPairsCv) and the rest is measured. pair_start_share: the row's share of starting a
// worker pair; budget_share: its share of the budget left. Nothing changes before the row has an
// analysed pair and a timed block. Records a change in row.splits from next_pair on; true when it
// changed.
bool replan(Row& row, const PairedAnalysis& analysis, double pair_start_share, double budget_share, bool blocks_fixed,
            std::int64_t next_pair, const SequentialDesign& design);

// Pair 0's split, planned (plan_paired) before any pair has run, where --blocks did not fix it: the
// noise within a block from each row's pilot (pilot_within_block), the assumed spreads between block
// pairs and between pairs (kAssumedBetweenBlocksCv, kAssumedBetweenPairsCv), the pilot's costs and an
// equal share of the budget left. Why: pair 0 ran 2 block pairs, and on the 64 MiB bandwidth rows,
// whose pilots show several percent within a block, its estimate was the run's largest deviation in a
// third of them (scripts/aa-check). Where the splits would leave fewer than least_pairs pairs in
// the budget, every row keeps its pilot split. True when the splits changed.
bool plan_first_pairs(std::vector<Row>& rows, double startup_seconds, double budget_left,
                      const SequentialDesign& design, std::int64_t least_pairs);

// What one worker pair costs as the rows are split now: its start-up, then each active row's setup and
// block pairs on both sides.
double pair_seconds(const std::vector<Row>& rows, double startup_seconds);

// At a look that is not the last, after sequential_look: each undecided row that even the whole budget
// left could not decide (stop_if_futile, stats/sequential.h) stops and goes inactive. Its reachable
// pairs: those it has, and as many more as budget_left buys at its own cost per worker pair (the
// start-up, its setup and its block pairs on both sides, times slowdown), at most cap. Returns what
// gbx.ab.looks[].futile keeps: per row stopped, its name, reachable pairs and chance to decide.
nlohmann::json stop_futile_rows(std::vector<Row>& rows, double startup_seconds, double slowdown, double budget_left,
                                std::int64_t cap, const PairedOptions& options);

// Counts a finished block's wall time. A held block's goes to the row's fixed cost per block (replan);
// a worker's first block of the row, which pays its setup, the declared warm-up and the accuracy check,
// gives what it cost beyond a held block, and from two of them on their median is the row's setup
// cost. The pilot's stands until then: it also drew the run's random inputs, which the later workers
// copy, so on a 64 MiB triad it cost twice what a later first block does.
void count_block_time(Row& row, bool first_of_worker, double wall_seconds);

// A fresh worker for the side, its launch kept for the record (pair, pid, the rows' order).
void start_worker(Side& side, std::int64_t pair, const std::vector<Row>& rows);

// Keeps a block: its samples in the side's record (one process outcome per row and pair) and in
// gbx.ab.blocks; a failed block marks the outcome failed.
void keep(Side& side, std::size_t row_index, const Row& row, std::int64_t pair, std::int64_t block, int order,
          WorkerBlock& got);

// The rows to compare: with variants, the i-th base variant against the i-th candidate one; else each
// benchmark both sides list, in the base's order. What only one side lists goes to only[side].
std::vector<Row> match_rows(const std::vector<std::string> (&listed)[2], bool variants,
                            std::vector<std::string> (&only)[2]);

// What the run itself settled or met, beside its options, for gbx.ab.design.
struct RunDesign {
  std::uint64_t seed = 0;
  double budget_seconds = 0.0;
  double wall_seconds = 0.0;
  std::optional<int> cpu;  // absent: unpinned
  std::string worker_malloc;
  std::string pair_memory;
  std::string pair_test;
  nlohmann::json looks = nlohmann::json::array();
  std::vector<std::string> only_in_base;
  std::vector<std::string> only_in_candidate;
  std::string analysis_failure;  // empty where the analysis went through
  nlohmann::json plan;           // gbx.ab.plan (ab/forecast.h); null: none was made
};
// What gbx.ab.design keeps of how the run was made and judged (docs/gating.md), beside its looks:
// the options it ran with (the split, the margins, the FDR) and the run's own facts.
nlohmann::json design_json(const AbOptions& options, const RunDesign& run);

// The side's finished record: its blocks merged per pair as process outcomes, gbx.ab (the design, the
// rows, the blocks, the partner's run id) beside them.
nlohmann::json side_record(Side& side, const std::vector<Row>& rows, const nlohmann::json& design,
                           const std::string& partner, bool interrupted);

}  // namespace gbx::tools::ab_sides

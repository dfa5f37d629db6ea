#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "stats/comparison.h"
#include "stats/paired.h"
#include "stats/sequential.h"

// `gbx ab`'s interleaved blocks as the records keep them, and the paired, group-sequential analysis of
// stats/paired.h and stats/sequential.h over them (docs/gating.md): the unit is the worker pair,
// each pair's estimate the order-balanced median of its block pairs' log ratios (winsorised to the
// row's pooled bounds), so that the speed the machine drifts through is shared by both sides of a
// block pair and cancels.
namespace gbx::tools {

// One block as the records keep it (gbx.ab.blocks).
struct AbBlock {
  std::string row;         // the comparison's row: the benchmark's name, or "BASE vs CANDIDATE" for variants
  std::string name;        // the benchmark this side ran
  std::string side;        // "base" or "candidate"
  std::int64_t pair = 0;   // the worker pair, 0..K-1: the unit of replication
  std::int64_t block = 0;  // the block pair within the worker pair
  std::int64_t order = 0;  // 0: this side ran first in its block pair, 1: second
  std::int64_t pid = 0;
  std::int64_t start_ns = 0;  // CLOCK_MONOTONIC
  std::int64_t end_ns = 0;
  std::vector<double> samples;  // seconds per run
  // The block's large host arrays on the pages the worker pair shares, and on the worker's own
  // (processes/pair_memory_directory.h); -1: the worker did not share (the record has no field).
  std::int64_t shared_bytes = -1;
  std::int64_t private_bytes = -1;
};

nlohmann::json block_json(const AbBlock& block);
AbBlock block_from_json(const nlohmann::json& json);

// One row's worker pairs from both sides' blocks, those of pairs below `pairs` only (all: -1).
std::vector<WorkerPairBlocks> worker_pairs(const std::string& row, const std::vector<AbBlock>& blocks,
                                           std::int64_t pairs = -1);

// A row's result as it is printed.
struct PairedResult {
  std::string name;
  std::vector<double> pair_log_ratios;  // x_k, one per worker pair with an estimate
  std::size_t block_pairs = 0;
  double ratio = 1.0;
  double lower = 1.0, upper = 1.0;                          // the (repeated) 95% interval
  double equivalence_lower = 1.0, equivalence_upper = 1.0;  // the (repeated) 90% TOST interval
  double p_value = 1.0;                                     // BH-adjusted, at the row's last look
  std::string test;
  std::string method;  // of the (repeated) interval
  std::optional<double> mde;
  // The worker pairs at which the MDE would come down to the equivalence margin (absent: it is there
  // already, or cannot be told; pairs_for_detectable_change, stats/paired.h).
  std::optional<std::size_t> pairs_for_margin;
  std::optional<BlockRatioBounds> block_ratio_bounds;  // log scale; absent: too few block pairs for them
  std::size_t winsorised_block_pairs = 0;
  PairedVariance variance;  // the levels of the noise, as the row's last analysis measured them
  Verdict verdict = Verdict::insufficient;
  // Stopped at a look as the budget left could not decide it (stop_if_futile, stats/sequential.h): the
  // chance that the whole budget left would have decided it, and its pairs then.
  bool futile = false;
  std::optional<double> chance_to_decide;
  std::size_t reachable_pairs = 0;
  std::string failure;  // non-empty: a worker failed this benchmark
  // Non-empty: that side failed its accuracy check against the reference in some worker (every worker
  // checks each row once), in words (record_reader.h's LoadedBenchmark::failure).
  std::string base_accuracy_failure;
  std::string candidate_accuracy_failure;
};

// The candidate failed its accuracy check where the base passed: a regression whatever its speed. The
// gate fails it (exit 1), and the row reads "inaccurate".
bool candidate_inaccurate(const PairedResult& r);

// What the row's verdict column says: "failed" (a worker failed it), "inaccurate", or the verdict.
std::string verdict_text(const PairedResult& r);

// options: the run's (the band, the margin, alpha and power of pairs_for_margin).
PairedResult result_from(const std::string& name, const SequentialRow& row, const PairedOptions& options);

// The verdicts a look can stop on: slower, faster or same.
inline bool decided(Verdict v) { return v == Verdict::slower || v == Verdict::faster || v == Verdict::same; }

// One look as gbx.ab.looks keeps it.
struct RecordedLook {
  std::int64_t pairs = 0;
  std::int64_t planned_pairs = 0;
  bool final_look = false;
  struct Futile {
    std::string name;
    std::size_t reachable_pairs = 0;
    double chance_to_decide = 0.0;
  };
  std::vector<Futile> futile;  // the rows stopped at this look as the budget left could not decide them
};

// The design of a run: its looks' plan, the spending function, the margins.
// benchmarks: the rows compared, which Benjamini-Hochberg adjusts together (the planner's floor).
SequentialDesign ab_design(double noise_band, double equivalence, double fdr, std::int64_t planned_pairs,
                           std::size_t benchmarks, PairTest test = PairTest::weighted);

// The run's looks replayed over the records' blocks: what the run decided, redone from the records
// alone. failures: per row, non-empty when a worker failed it (it is never analysed).
std::vector<PairedResult> replay_looks(const std::vector<std::string>& rows, const std::vector<std::string>& failures,
                                       const std::vector<AbBlock>& blocks, const std::vector<RecordedLook>& looks,
                                       double noise_band, double equivalence, double fdr,
                                       PairTest test = PairTest::weighted);

// The sentence of a row, e.g. "inconclusive: a change of 3.1% or more would have been seen".
std::string paired_sentence(const PairedResult& result, double noise_band, double equivalence);

// The parts of an undecided row's sentence. The statistics give the numbers (stats/paired.h); the
// words are gbx ab's, as they name its flags.
// "a change of 3.1% or more would have been seen" (one decimal; "more than 1000%" beyond 10); without an
// MDE "the run has no replicated estimate of its noise".
std::string detectable_change_clause(std::optional<double> mde);
// A row whose 95% interval lies beyond the noise band, held back by the test across pairs (adjusted by
// Benjamini-Hochberg), where the MDE would promise what the test cannot give: "inconclusive: beyond the
// noise band, but not significant across the benchmarks (adjusted p 0.125; with 6 worker pairs an exact
// test's p is at least 0.031): more worker pairs, from a larger --budget, would decide it". The least
// p (exact_least_p) is said for an exact test (exact_test), not for t or HKSJ.
std::string held_back_sentence(double adjusted_p, const std::string& test, std::size_t pairs);
// Where the noise is (noise_source) and what would narrow it: "the noise is between processes: the
// pairs' ratios vary by 6.1% (sd) beyond the 0.4% their blocks explain; more worker pairs, from a
// larger --budget, would narrow it, longer pairs would not", or "the noise is within processes: a
// block pair's ratio varies by 17.4% (sd) about its pair's, leaving 7.3% in each pair's, against 2.9%
// between processes; more block pairs and worker pairs, from a larger --budget, would narrow it".
// Empty below 2 pairs.
std::string noise_level_clause(const PairedVariance& variance);
// "[0.998, 1.004]"; a side the analysis left unbounded (too few pairs for the look's level, kept
// as e^-50 or e^50 in the numbers) reads 0 or inf, not as a ratio of 10^21.
std::string interval_text(double lower, double upper);
bool interval_bounded(double lower, double upper);

// "summary: 1 slower, 0 faster, 10 same, 1 inconclusive; geometric-mean ratio 1.004 [0.998, 1.010] ...".
std::string summary_line(const std::vector<PairedResult>& rows);
// The suite's geometric-mean ratio (geometric_mean_ratio in stats/paired.h) over the rows with pairs.
std::optional<RatioInterval> suite_ratio(const std::vector<PairedResult>& rows);

// The gate: 1 when a row is slower, else 3 when one is undecided (inconclusive, unreplicated,
// insufficient or failed), else 0.
int paired_exit_code(const std::vector<PairedResult>& rows);

}  // namespace gbx::tools

#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "stats/comparison.h"

// The paired analysis of `gbx ab`'s interleaved blocks (docs/compare-ab.md): the unit is the pair of
// worker processes, and each pair's estimate is the median over its block pairs of the log ratio of
// the candidate block's median to the base block's, so that the speed the machine drifts through is
// shared by both sides of a block pair and cancels (and one preempted block moves it little). Across
// pairs: Student t on the pairs' estimates (stats/paired.h will bring the sign-flip test).
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
};

nlohmann::json block_json(const AbBlock& block);
AbBlock block_from_json(const nlohmann::json& json);

// The noise band of the interleaved design: faster/slower need the 95% interval beyond 1 +/- 0.5%.
constexpr double kPairedNoiseBand = 0.005;

// The default equivalence margin of `same` (see docs/compare-ab.md for why 2%).
constexpr double kDefaultEquivalence = 0.02;

// How the decision at a look is made: two-sided alpha for faster/slower and one-sided alpha for
// each of TOST's two tests, both already spent for this look (sequential.h's alpha spending).
struct LookLevels {
  double alpha_difference = 0.05;
  double alpha_equivalence = 0.05;
};

struct PairedResult {
  std::string name;
  std::vector<double> pair_log_ratios;  // one per worker pair with at least one complete block pair
  std::size_t block_pairs = 0;
  double ratio = 1.0;                                       // exp(mean log ratio)
  double lower = 1.0, upper = 1.0;                          // 95% (or the look's) interval
  double equivalence_lower = 1.0, equivalence_upper = 1.0;  // the (1 - 2 alpha) TOST interval
  double p_value = 1.0;
  double mde = 0.0;  // the smallest relative change seen at 90% power (0.031: 3.1%); 0 when unknown
  Verdict verdict = Verdict::insufficient;
  std::string failure;  // non-empty: a worker failed this benchmark
  std::string sentence;
};

// The fewest worker pairs behind a verdict: with fewer the variance between pairs is not measured
// (a sign-flip test on 3 pairs cannot reach p < 0.25).
constexpr std::size_t kMinPairs = 3;

// The paired analysis of one row's blocks (both sides'), at the look's levels. Faster/slower
// when the difference interval lies outside the noise band; same when the TOST interval lies inside
// [1/(1+M), 1+M]; fewer than kMinPairs pairs: unreplicated, or insufficient when there is no pair.
PairedResult analyse_pairs(const std::string& name, const std::vector<AbBlock>& blocks, double noise_band,
                           double equivalence, const LookLevels& levels);

// The sentence of a row, e.g. "inconclusive: a change of 3.1% or more would have been seen".
std::string paired_sentence(const PairedResult& result, double noise_band, double equivalence);

// The suite's geometric-mean ratio over the rows with pairs, with its 95% interval (t over the pairs'
// mean log ratios across benchmarks, pair by pair).
struct SuiteRatio {
  double ratio = 1.0, lower = 1.0, upper = 1.0;
  std::size_t benchmarks = 0;
};
SuiteRatio suite_ratio(const std::vector<PairedResult>& rows);

// "summary: 1 slower, 0 faster, 10 same, 1 inconclusive; geometric-mean ratio 1.004 [0.998, 1.010]".
std::string summary_line(const std::vector<PairedResult>& rows);

// The gate: 1 when a row is slower, else 3 when one is undecided (inconclusive, unreplicated,
// insufficient or failed), else 0.
int paired_exit_code(const std::vector<PairedResult>& rows);

}  // namespace gbx::tools

namespace gbx::tools {

// Alpha spent by information fraction t in [0, 1] under the Lan-DeMets Pocock-type function
// alpha * ln(1 + (e - 1) t): it spends early, so that a clear result stops at the first look.
double pocock_spent(double t, double alpha);

// The verdicts a look can stop on: slower, faster or same.
inline bool decided(Verdict v) { return v == Verdict::slower || v == Verdict::faster || v == Verdict::same; }

}  // namespace gbx::tools

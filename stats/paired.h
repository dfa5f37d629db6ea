#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "stats/comparison.h"
#include "stats/weighted_pairs.h"

// The paired analysis of an interleaved comparison (issue 21, docs/gating-statistics.md). A worker pair is
// a fresh base process and a fresh candidate process, alive side by side, that take turns running
// short blocks of one benchmark; each block pair is a base block and a candidate block run back to back
// in a randomised order. The machine's speed drifts by several percent over seconds, but hardly within
// a block pair (tens of milliseconds), so the log ratio of the two blocks' medians cancels the drift;
// what it cannot cancel is each process's own offset (address-space layout, page placement), so the
// worker pair, not the block, is the unit of replication.
//
// Per pair k the estimate x_k is the order-balanced median of the block-pair log ratios
// d_j = log median(candidate block j) - log median(base block j):
//   x_k = (median{d_j : candidate ran first} + median{d_j : base ran first}) / 2,
// or the median of all d_j when one order is missing. The median resists a block hit by a step of the
// clock or a preemption; taking each order separately cancels an order effect (the second block of a
// pair warmer, or drift within the pair) that would otherwise make the d_j bimodal, where a median is
// unstable. But with fewer than 3 block pairs of each order that median is a mean, and one block pair
// 20% off moves x_k by 20% / B; so, across pairs, each d_j is first winsorised to the row's pooled
// bounds (pooled_block_ratio_bounds below), which only the other pairs' block pairs can supply.
// Across pairs the x_k are independent and identically distributed (fresh processes), so a test
// across pairs (PairTest below) takes them as its sample, on the log scale, and exp maps its interval
// back.
//
// Every function is pure; samples are expected finite and positive (anything else makes the block
// pair unusable, and it is skipped).

namespace gbx {

// The defaults of the paired verdict. The equivalence margin: `same` means the change is within
// +/-2%, the smallest change that the gate is asked to find. The noise band: faster/slower need
// the 95% interval beyond 1 +/- 0.5%; it must be well below the margin, or a change of exactly the
// margin could never be called (its interval straddles the band half of the time), and above 0, so
// that a real but negligible 0.1% shift from a rebuilt binary is not a regression.
inline constexpr double kPairedNoiseBand = 0.005;
inline constexpr double kDefaultEquivalenceMargin = 0.02;
// Up to this many pairs the p-value is the exact sign-flip permutation test (2^K sign vectors, 4096 at
// 12); beyond it Student's t, whose normal approximation is then good and whose cost stays O(K).
inline constexpr std::size_t kSignFlipMaxPairs = 12;

enum class PairedSide { base, candidate };

// The test across worker pairs. All three stay because `gbx ab --pair-test` and `gbx compare
// --pair-test` offer them (docs/gating.md); the record keeps the one used (gbx.ab.pair_test), and
// docs/gating-statistics.md compares them.
// - weighted, the default (PairedOptions', gbx ab's): each pair weighted by its precision
//   (stats/weighted_pairs.h, guarded), the exact weighted sign-flip interval and p-value up to
//   kWeightedSignFlipMaxPairs pairs, the HKSJ t interval beyond. Why the default: on the same recorded
//   runs it calls more unchanged rows `same` than the others, none falsely, with narrower intervals.
// - signed_rank: the Hodges-Lehmann centre of the x_k, the exact Wilcoxon signed-rank p-value and its
//   distribution-free interval (stats/signed_rank.h); beyond kSignedRankMaxPairs pairs it falls back to
//   t. Why offered: it needs no weights, which a pair's own few block pairs may estimate poorly, and it
//   is robust to the few processes that run far slower for all their blocks.
// - t: Student's t on the mean of the x_k and the exact sign-flip p-value. Why offered: records without
//   a recorded test were decided with it, so `gbx compare` replays them with it; and where only a few
//   worker pairs are affordable no exact test can reach significance (exact_test_least_pairs) while t
//   can, so a plan may choose it (plan_least_pairs asks fewer pairs of it).
enum class PairTest { signed_rank, t, weighted };
const char* to_string(PairTest test);  // "signed-rank", "t", "weighted-sign-flip"
std::optional<PairTest> parse_pair_test(const std::string& text);

// One block as the worker record keeps it: the side, its samples in order (after the block's own
// warm-up, which is not kept here) and when it started (seconds since the run began; the analysis uses
// the order only, the time is kept so that the drift can be shown).
struct SideBlock {
  PairedSide side = PairedSide::base;
  std::vector<double> samples;
  double start_seconds = 0.0;
};

// A base block and a candidate block run back to back.
struct BlockPair {
  std::vector<double> base;
  std::vector<double> candidate;
  bool candidate_first = false;
  double start_seconds = 0.0;  // the earlier block's start
};

// One worker pair's blocks of one benchmark, in the order they ran.
struct WorkerPairBlocks {
  std::vector<BlockPair> block_pairs;
};

// Consecutive blocks of one worker pair into block pairs, in order: blocks 0 and 1 form the first pair,
// 2 and 3 the second, and so on. A pair of two blocks of the same side, or a trailing single block, is
// dropped (a worker that died mid-pair leaves one).
WorkerPairBlocks pair_blocks(const std::vector<SideBlock>& blocks);

// One worker pair's estimate. Absent (from estimate_pair) when no block pair has a positive finite
// median on both sides.
struct PairEstimate {
  double log_ratio = 0.0;           // x_k, as above
  std::size_t block_pairs = 0;      // block pairs used
  std::size_t candidate_first = 0;  // of which the candidate ran first
  std::size_t winsorised = 0;       // of which the d_j was pulled in to a bound
  // 1.4826 MAD of the d_j (0 for one block pair): the spread between block pairs within the pair.
  double block_log_ratio_spread = 0.0;
  // Pooled 1.4826 MAD of the log samples about their block's median: the noise within a block.
  double within_block_log_spread = 0.0;
  std::size_t base_samples = 0;
  std::size_t candidate_samples = 0;
};
// Bounds on the log scale that each d_j is winsorised to before a pair's estimate is taken.
struct BlockRatioBounds {
  double lower = 0.0;
  double upper = 0.0;
};
std::optional<PairEstimate> estimate_pair(const WorkerPairBlocks& pair,
                                          const std::optional<BlockRatioBounds>& bounds = std::nullopt);

// The row's pooled bounds: the median m of all the d_j of all pairs -/+ max(kWinsorSpreads s,
// noise_band), s the pooled 1.4826 MAD about m. Why pooled: a pair of 2 block pairs cannot tell which
// of its two is the outlier; the row's other pairs can. Why this wide: s holds the spread between
// pairs as well as within them, so only a d_j beyond 3 times the row's whole spread is pulled in, and
// a pair shifted that far keeps its rank among the x_k (the signed-rank test uses ranks); the floor
// at the noise band keeps a row whose d_j mostly tie (a coarse clock) from being pulled to m.
// Absent below 2 pairs with usable block pairs or kMinPooledBlockPairs block pairs in all.
inline constexpr double kWinsorSpreads = 3.0;
inline constexpr std::size_t kMinPooledBlockPairs = 8;
std::optional<BlockRatioBounds> pooled_block_ratio_bounds(const std::vector<WorkerPairBlocks>& pairs,
                                                          double noise_band);

// The variance components on the log scale (variances, not CVs), as the planner needs them:
// within_block: of one sample about its block's median; between_blocks: of one block-pair log ratio d_j
// about its pair's x_k, less what the within-block noise explains ((pi / 2) sigma_w^2 (1/n_b + 1/n_c)),
// floored at 0; between_pairs: of the x_k across pairs (their sample variance), less what the block-pair
// spread explains ((pi / 2) between-block variance / B), floored at 0 (absent below 2 pairs).
struct PairedVariance {
  double within_block = 0.0;
  double between_blocks = 0.0;
  std::optional<double> between_pairs;
  // What the block pairs explain of var(x_k): the mean over pairs of (pi / 2) s_j^2 / B, s_j the sd of
  // the pair's d_j. between_pairs is what is left of var(x_k) beyond it.
  double from_blocks = 0.0;
  double mean_samples_per_block = 0.0;
  double mean_block_pairs_per_pair = 0.0;
};

struct PairedOptions {
  double noise_band = kPairedNoiseBand;
  double equivalence_margin = kDefaultEquivalenceMargin;
  double alpha = 0.05;                 // the difference test, two-sided: the 95% interval
  double equivalence_alpha = 0.05;     // each one-sided test of the TOST: the 90% interval
  double power = 0.9;                  // for the MDE
  PairTest test = PairTest::weighted;  // gbx ab's
};
// gbx.ab.pair_estimate: how the x_k are taken (each d_j winsorised to the row's pooled bounds, then the
// order-balanced median), as the records name it.
inline constexpr const char* kPairEstimateWinsorised = "winsorised-order-balanced-median";

// A ratio interval on the log scale, from the mean and its standard error: exp(mean -/+ critical se).
struct LogInterval {
  double lower = 0.0;  // log of the ratio's bounds
  double upper = 0.0;
  double critical = 0.0;  // the t (or z) multiplier used
};

struct PairedAnalysis {
  std::size_t pairs = 0;                // K: pairs with an estimate
  std::vector<PairEstimate> estimates;  // one per pair with an estimate, in input order
  double mean_log_ratio = 0.0;          // mean of x_k
  std::optional<double> sd_log_ratio;   // sample sd of x_k (n - 1); absent for K = 1
  // exp of the centre the intervals are about: the mean of the x_k (t) or their Hodges-Lehmann
  // estimate (signed rank).
  double ratio = 1.0;
  // The standard error of the centre that the MDE uses (K >= 2): sd / sqrt(K) for t; for the signed
  // rank, the half-width of its exact interval at about 95% over the normal quantile of the level it
  // reaches (robust, and about 1.02 sd / sqrt(K) on normal x_k).
  std::optional<double> se_log_ratio;
  bool signed_rank = false;  // the signed-rank test decided (else t or weighted)
  // The weighted test decided: the guarded x_k and their weights (stats/weighted_pairs.h).
  std::optional<WeightedPairs> weighted;
  // K >= 2: Student t on the x_k, levels 1 - alpha (difference) and 1 - 2 equivalence_alpha (TOST),
  // method "paired-t-log-ratios", or the signed-rank intervals, "signed-rank-hodges-lehmann". K = 1: t on that pair's
  // block log ratios (within one pair: what the verdict then calls unreplicated), method "within-pair-t-block-ratios";
  // absent when the one pair has fewer than 2 block pairs.
  std::optional<RatioInterval> difference_interval;   // 95% by default
  std::optional<RatioInterval> equivalence_interval;  // 90% by default
  // The two-sided p-value of "no change": for the t test the exact sign-flip test for 2 <= K <=
  // kSignFlipMaxPairs, else Student's t on the x_k; for the signed-rank test its exact p-value (K = 1:
  // t on the block ratios). test names which.
  double p_value = 1.0;
  double p_t = 1.0;
  std::optional<double> p_sign_flip;
  // "signed-rank-exact", "sign-flip-exact", "weighted-sign-flip-exact" (exact_test is true for these),
  // "paired-t", "weighted-hksj-t" or "within-pair-t"
  std::string test;
  // The smallest relative change (as a fraction, 0.031 for 3.1%) that this design detects with
  // probability `power` at `alpha` (see minimum_detectable_change), from the sd of the x_k. Absent for
  // K = 1: one pair has no replicated estimate of the noise.
  std::optional<double> mde;
  PairedVariance variance;
  // The bounds the d_j were winsorised to (each estimate counts those it pulled in); absent where the
  // row has too few pairs or block pairs for them (pooled_block_ratio_bounds).
  std::optional<BlockRatioBounds> block_ratio_bounds;
  bool replicated = false;  // K >= 2
  std::size_t base_samples = 0;
  std::size_t candidate_samples = 0;
};

// The noise within one block: 1.4826 times the median absolute deviation of its log samples about
// their median, as estimate_pair pools it over a pair's blocks (gbx ab plans its first pair from a
// pilot block's); 0 below 2 positive finite samples.
double within_block_log_spread(const std::vector<double>& samples);

// Absent when no pair has an estimate or an option is out of range (alpha, equivalence_alpha, power
// outside (0, 1), a negative band or a margin <= 0).
std::optional<PairedAnalysis> analyze_pairs(const std::vector<WorkerPairBlocks>& pairs,
                                            const PairedOptions& options = {});

// Student's t interval for the mean of `values` with the given critical multiplier; absent below 2
// values. log scale.
std::optional<LogInterval> mean_interval(const std::vector<double>& values, double critical);

// The signed-rank intervals of the x_k at one-sided levels: each RatioInterval's bounds exp(W_(c)),
// exp(W_(N+1-c)) about exp(Hodges-Lehmann), clamped; nominal `level` recorded. Absent for K < 2 or
// K > kSignedRankMaxPairs.
std::optional<RatioInterval> signed_rank_ratio_interval(const std::vector<double>& x, double one_sided_alpha,
                                                        double level);
// The signed-rank standard error of the centre (PairedAnalysis::se_log_ratio); absent as above.
std::optional<double> signed_rank_standard_error(const std::vector<double>& x);

// Two-sided exact sign-flip permutation p-value of "the x_k are symmetric about 0": the share of the 2^K
// sign vectors s with |sum s_k x_k| >= |sum x_k| (within a relative 1e-12, so that ties count as at
// least as extreme). The identity and its negation are among them, so p >= 2^(1-K). Absent for K = 0 or
// K > 24 (the enumeration would be too long).
std::optional<double> sign_flip_p_value(const std::vector<double>& values);

// Two-sided p-value of Student's one-sample t-test of mean 0; 1 when the sd is 0 and the mean is 0,
// 0 when the sd is 0 and the mean is not. Absent below 2 values.
std::optional<double> t_test_p_value(const std::vector<double>& values);

// The MDE (docs/gating-statistics.md): on the log scale
//   mde_log = log(1 + noise_band) + (c_alpha + t_{power, K-1}) sd / sqrt(K),
// c_alpha = t_{1 - alpha/2, K-1} (or the caller's critical value, the sequential design's last
// boundary), returned as exp(mde_log) - 1. Why this form: "slower" needs the lower bound of the
// interval, mean - c se, above log(1 + band); with the true change delta the mean is delta + se Z, so
// P(found) = P(Z > c - (delta - log(1 + band)) / se), which is `power` when delta = mde_log (t for Z,
// as se is estimated). Absent for K < 2, sd < 0, or alpha, power outside (0, 1).
std::optional<double> minimum_detectable_change(double sd, std::size_t pairs, double noise_band, double alpha = 0.05,
                                                double power = 0.9, std::optional<double> critical = std::nullopt);

// The worker pairs at which the MDE would come down to `target` (gbx ab passes its equivalence
// margin): the least K' >= pairs with minimum_detectable_change(sd, K', noise_band, alpha, power) <=
// target, sd being the pairs' spread (se sqrt(K)). Fixed-sample t quantiles: a sequential run's last
// boundary is a little wider, so it is an estimate from below. Absent where the MDE at `pairs` is within
// target already, where target is not above the noise band (no K' reaches it), for pairs < 2 or an sd
// that is not positive, and beyond kMostPairsForDetectableChange.
inline constexpr std::size_t kMostPairsForDetectableChange = 100000;
std::optional<std::size_t> pairs_for_detectable_change(double sd, std::size_t pairs, double target,
                                                       const PairedOptions& options);

// The paired verdict, in this order:
// 1. insufficient: a side has fewer than kMinSamplesPerSide samples in all, or there is no interval;
// 2. faster/slower: adjusted_p <= q and the difference interval wholly beyond 1 -/+ noise_band;
// 3. same: the equivalence interval wholly inside [1 - margin, 1 + margin] (two one-sided tests at
//    equivalence_alpha each);
// 4. inconclusive otherwise.
// K = 1: what steps 2 and 3 would call faster, slower or same is unreplicated (same rests on the same
// replication as slower). A change smaller than the margin can be both slower and same; slower wins
// (a demonstrated change beyond the noise band is what a gate is for), and within_margin says so.
struct PairedDecision {
  Verdict verdict = Verdict::inconclusive;
  bool within_margin = false;  // the equivalence interval was inside the margin
};
PairedDecision decide_paired(const PairedAnalysis& analysis, double adjusted_p, const PairedOptions& options = {},
                             double q = 0.05);
// The same on intervals the caller made (the sequential design's repeated confidence intervals).
PairedDecision decide_paired(const RatioInterval& difference, const RatioInterval& equivalence, bool replicated,
                             std::size_t base_samples, std::size_t candidate_samples, double adjusted_p,
                             const PairedOptions& options = {}, double q = 0.05);

// Whether the 95% interval [lower, upper] lies beyond 1 +/- noise_band on either side: the interval's
// half of a `faster` or `slower` verdict (decide_paired), the p-value being the other.
bool beyond_noise_band(double lower, double upper, double noise_band);

// Whether PairedAnalysis::test names an exact permutation test (its name ends in "-exact").
bool exact_test(const std::string& test);

// The least two-sided p-value of an exact test across K pairs (the signed rank, the sign flips), all
// pairs on one side: 2^(1-K). Below K = log2(2 m / q) pairs no single changed row among m can pass
// Benjamini-Hochberg at q (6 pairs: 1/32, above 0.05 / 4).
double exact_least_p(std::size_t pairs);

// The fewest worker pairs at which an exact test could call one changed row among `benchmarks` alone:
// Benjamini-Hochberg then multiplies its p by the count, so it needs 2^(1-K) <= q / benchmarks,
// K = ceil(1 + log2(benchmarks / q)): 6 for one benchmark at q = 0.05, 8 for 4, 9 for 12, 11 for 50.
// At least 1; benchmarks of 0 count as 1, and a q outside (0, 1] as 0.05.
std::size_t exact_test_least_pairs(std::size_t benchmarks, double q);

// Where an undecided row's noise is, which tells what would narrow it: between processes (between_pairs
// above what the pairs' blocks explain), only more worker pairs; within processes, more block pairs
// and worker pairs alike. The levels as standard deviations of logs; the caller words them (gbx ab's
// sentences name its flags, which the statistics do not know).
enum class NoiseLevel { between_processes, within_processes };
struct NoiseSource {
  NoiseLevel level = NoiseLevel::within_processes;
  double between_pairs_sd = 0.0;   // sqrt(between_pairs): the x_k's spread beyond what their blocks explain
  double from_blocks_sd = 0.0;     // sqrt(from_blocks): what the pairs' block pairs explain of it
  double between_blocks_sd = 0.0;  // sqrt(between_blocks): a block pair's d_j about its pair's x_k
};
// Absent below 2 pairs (no between_pairs).
std::optional<NoiseSource> noise_source(const PairedVariance& variance);

// The suite's geometric-mean ratio over benchmarks with its t interval on the per-benchmark mean log
// ratios (each benchmark one value), at `level`. Absent for fewer than 2 benchmarks.
std::optional<RatioInterval> geometric_mean_ratio(const std::vector<double>& log_ratios, double level = 0.95);

}  // namespace gbx

#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "stats/paired.h"

// Group-sequential stopping for paired comparisons (docs/gating-statistics.md). The run goes in looks
// (by default after 5, 10 and 20 worker pairs). At each look every undecided benchmark is analysed
// again; its intervals are repeated confidence intervals (Jennison & Turnbull, 2000, ch. 9) whose
// critical values come from an alpha-spending function (Lan & DeMets, 1983), so that the chance of
// ever calling a false faster/slower, or a false same, over all the looks stays at the nominal level.
// A benchmark stops at the first look where it is decided (faster, slower or same); the remaining
// budget goes to the undecided ones.
//
// Both tests spend: the difference test spends alpha / 2 on each side (two-sided 5%: the 95% interval
// at a single look), the TOST spends equivalence_alpha on each of its one-sided tests (the 90% interval
// at a single look). The boundaries are computed for the standardised Brownian motion (known variance)
// by numerical integration over the looks (Armitage, McPherson & Rowe, 1969) and turned into t critical
// values with K - 1 degrees of freedom at the same nominal tail probability (Jennison & Turnbull,
// ch. 11, the usual approximation for an estimated variance).

namespace gbx {

// O'Brien-Fleming-type (Lan-DeMets): alpha(t) = 2 (1 - Phi(z_{1 - alpha/2} / sqrt(t))), spends almost
// nothing early, so the last look's boundary is close to the fixed-sample one (2.004 against 1.960 at
// three equal looks): the default, because the power at the last look barely drops. Pocock-type:
// alpha(t) = alpha ln(1 + (e - 1) t), stops earlier on large changes but widens the last interval more.
enum class SpendingFunction { obrien_fleming, pocock };
const char* to_string(SpendingFunction spending);

// The one-sided alpha spent by information fraction t (clamped to [0, 1]).
double spent_alpha(SpendingFunction spending, double fraction, double one_sided_alpha);

// The one-sided upper z boundaries c_1..c_m at increasing information fractions t_1 < ... < t_m in
// (0, 1] such that P(Z_1 < c_1, ..., Z_{j-1} < c_{j-1}, Z_j >= c_j) = alpha(t_j) - alpha(t_{j-1}) under
// no change, Z_j = S(t_j) / sqrt(t_j) for a standard Brownian motion S. The two-sided symmetric
// boundary is the same c_j at one_sided_alpha = alpha / 2 (crossing both sides is neglected: below 1e-6
// here). A look that would spend nothing gets +infinity's stand-in 40. Absent for fractions not
// increasing in (0, 1] or alpha outside (0, 0.5).
std::optional<std::vector<double>> spending_boundaries(const std::vector<double>& fractions, double one_sided_alpha,
                                                       SpendingFunction spending);

// The same with the looks' information (pairs, or any measure proportional to 1 / variance) apart from
// their spending fractions, for a run whose planned maximum grew (the budget left after other rows
// stopped): the Z_j then have correlations sqrt(I_i / I_j), while each look spends
// alpha(t_j) - alpha(t_{j-1}) as planned at the time. Fractions may repeat (a look that spends nothing);
// information must increase.
std::optional<std::vector<double>> spending_boundaries(const std::vector<double>& information,
                                                       const std::vector<double>& fractions, double one_sided_alpha,
                                                       SpendingFunction spending);

// The t_{K-1} critical value with the same upper tail as z: t_{K-1}^{-1}(Phi(z)). K >= 2.
double t_critical_for(double z, std::size_t pairs);

struct SequentialDesign {
  std::vector<std::size_t> looks = {5, 10, 20};  // pairs at each look, increasing; the last is the most
  SpendingFunction spending = SpendingFunction::obrien_fleming;
  PairedOptions options;
  double q = 0.05;             // Benjamini-Hochberg level at a single look (scaled by the look's nominal level)
  std::size_t benchmarks = 1;  // the rows adjusted together by Benjamini-Hochberg (the planner's floor)
};

// The looks 5, 10, 20, 40, ... below max_pairs, then max_pairs itself; {max_pairs} when it is below 5
// (none for 0).
std::vector<std::size_t> look_schedule(std::size_t max_pairs);

// One benchmark's state across looks.
struct SequentialRow {
  bool stopped = false;
  std::size_t looks_taken = 0;              // looks at which this row was analysed
  std::vector<double> information;          // the pairs at each of those looks
  std::vector<double> fractions;            // the spending fraction of each: pairs / the planned maximum then
  std::optional<PairedAnalysis> analysis;   // at the latest look
  std::optional<RatioInterval> difference;  // the repeated confidence intervals at the latest look
  std::optional<RatioInterval> equivalence;
  double difference_critical = 0.0;  // the t multipliers used at the latest look
  double equivalence_critical = 0.0;
  double nominal_alpha = 0.0;  // the two-sided nominal level of the latest difference boundary
  double adjusted_p = 1.0;     // BH across all rows at the latest look
  PairedDecision decision;
  std::optional<double> mde;  // with the last boundary's critical value
  // Stopped for futility at the latest look (stop_if_futile): still inconclusive, and nothing more is
  // measured; chance_to_decide is what the whole budget left would have given it.
  bool futile = false;
  std::optional<double> chance_to_decide;
  std::size_t reachable_pairs = 0;  // the pairs that chance was for, where it stopped
};

// One look over all benchmarks. pairs_by_benchmark[b] holds benchmark b's worker pairs so far (its
// spending fraction is their count over design.looks.back(), capped at 1; a final look counts as 1,
// spending what is left). design.looks.back() may grow between looks, when the budget left by rows that
// stopped goes to the rest: past looks keep what they spent, and the boundaries use the true correlation
// of the looks (the overload of spending_boundaries above). Rows already stopped are kept as they are. Each other row
// is analysed, its difference and equivalence intervals use this look's boundaries (computed from the fractions of the
// row's own looks), the p-values of all rows are adjusted together by Benjamini-Hochberg
// (benjamini_hochberg in stats/comparison.h) and a change needs adjusted_p <= q times the look's nominal
// level over alpha. A row whose verdict is faster, slower or same stops; at a final look every row
// stops. rows is resized to the number of benchmarks.
void sequential_look(const std::vector<std::vector<WorkerPairBlocks>>& pairs_by_benchmark,
                     std::vector<SequentialRow>& rows, const SequentialDesign& design, bool final_look);

// Futility (non-binding; Jennison & Turnbull, 2000, ch. 10, conditional power under the current
// trend). A row still undecided at a look that is not the last stops, inconclusive, when even
// reachable_pairs worker pairs (what the whole budget left would buy it alone) would decide it with a
// chance below kFutilityChance, were its current estimate the truth and its spread as measured; the
// budget then goes to the rows that can still be decided. Why: on a 2-core VM a 64 MiB bandwidth row
// whose processes differ by 5-10% took half of each worker pair's time for 7-10 pairs and was never
// decided, while the L2-resident rows beside it, whose blocks cost milliseconds, stayed inconclusive
// for want of pairs (scripts/aa-check). Stopping calls nothing, so it adds no false faster, slower or
// same: it gives up only the power that the row did not have.
inline constexpr double kFutilityChance = 0.1;

// The chance that the row's verdict at reachable_pairs would be faster, slower or same, given its
// analysis at K pairs: with se the smaller of the test's standard error and 1.4826 MAD(x_k) / sqrt(K)
// (robust to one slow process among the first pairs, which the tests discount), se' = se sqrt(K / K')
// the standard error at K' = reachable_pairs and the
// final estimate normal about the current one d with sd tau = se' sqrt(1 - K / K'),
//   P(slower) = Phi((d - log(1 + band) - t_{1-alpha/2, K'-1} se') / tau), faster alike,
//   P(same) = Phi((u - d) / tau) - Phi((l - d) / tau), u = log(1 + margin) - t_{1-equivalence_alpha,
//   K'-1} se', l = log(1 - margin) + the same (0 where l >= u),
// summed (an upper bound of their union). The fixed-sample t quantiles are below the last look's
// boundaries, and the exact tests' least p (exact_least_p) is not applied: both err towards going on.
// Absent for an unreplicated analysis (K < 2, no se) or reachable_pairs <= K.
std::optional<double> chance_to_decide(const PairedAnalysis& analysis, std::size_t reachable_pairs,
                                       const PairedOptions& options);

// The worker pairs a row could reach were the whole budget left spent on it alone: the `pairs` it has
// and as many more as budget_left_seconds buys at seconds_per_pair each, at most `most`. Absent where a
// pair's cost is not positive.
std::optional<std::size_t> reachable_pairs(std::size_t pairs, double budget_left_seconds, double seconds_per_pair,
                                           std::size_t most);

// At a look that is not the last, after sequential_look: stops an undecided row (not stopped, verdict
// inconclusive) whose chance_to_decide at reachable_pairs is below kFutilityChance, marking it futile.
// True when it stopped the row.
bool stop_if_futile(SequentialRow& row, std::size_t reachable_pairs, const PairedOptions& options);

// What a pair of processes costs for one benchmark (its share of the start-up included).
struct PairedCosts {
  double sample_seconds = 0.0;
  double block_warmup_seconds = 0.0;  // each block's own warm-up and fixed cost (the order to the worker)
  double pair_start_seconds = 0.0;    // starting a worker pair, this benchmark's share
};

// The split of one benchmark's budget share between samples per block n, block pairs per worker
// pair B and worker pairs K. n: the Kalibera-Jones optimum at the block-pair level,
// n* = sqrt((pi/2) 2 sigma_w^2 c_warm / (sigma_blk^2 c_s)), clamped to [kMinSamplesPerBlock,
// kMaxBlockSeconds / c_s] (a block stays short, so that the drift within a block pair stays small).
// B: with the block pair as the "sample" (variance v_bp = sigma_blk^2 + (pi/2) sigma_w^2 2/n, cost
// c_bp = 2 (c_warm + n c_s)) and the worker pair as the "process" (variance sigma_pair^2, cost
// pair_start_seconds), each B gives K(B) pairs within the budget and a pair sd s(B) =
// sqrt(sigma_pair^2 + (pi/2) v_bp / B); B is the fewest block pairs in [2, kMaxBlockPairsPerPair] whose
// (t_{K-1, 0.975} + t_{K-1, 0.9}) s(B) / sqrt(K) is within kPlanMdeTolerance of the least. With many
// pairs this is Kalibera & Jones's optimum one level up; with few, it trades block pairs for pairs.
// K: K(B). Looks from look_schedule(K).
// 1: where the noise between blocks grows with their length (a memory bandwidth that changes over tens
// of milliseconds), a block of one sample alternates the sides most finely. With one
// sample a block's own spread reads 0, so n then stays at 1, which is where the plan put it.
inline constexpr std::size_t kMinSamplesPerBlock = 1;
inline constexpr double kMaxBlockSeconds = 0.05;
// B is chosen among [2, kMaxBlockPairsPerPair] for the least MDE its plan reaches (t quantiles at the
// pairs the budget then affords); kMaxBlockPairsPerPair keeps one pair to seconds. Not Kalibera &
// Jones's B*: on the 64 MiB bandwidth rows, whose block pairs disagree by 7% and whose pairs hardly at
// all, B* is 30-60, and where a pair's setup costs seconds the budget affords few pairs, which B* does
// not see (docs/gating-statistics.md, "The planner").
inline constexpr std::size_t kMaxBlockPairsPerPair = 64;
// The planner takes the fewest block pairs whose MDE is within this share of the least.
inline constexpr double kPlanMdeTolerance = 0.02;
// Where the budget affords this many pairs at B = 2, the planner keeps to splits that leave as many: the
// exact tests across pairs (the weighted sign flip, gbx ab's default, and the signed rank) cannot call
// anything at 5% with fewer (their least two-sided p is 2^(1-K): 1/16 at 5 pairs, 1/32 at 6), whatever
// the MDE of Student's t says.
inline constexpr std::size_t kPlanLeastPairs = 6;

// The pairs a plan keeps where the budget affords them at B = 2: kPlanLeastPairs, and for an exact test
// (the signed rank, the weighted sign flip) at least exact_test_least_pairs(design.benchmarks,
// design.q), so that one changed row among many could pass Benjamini-Hochberg: with 40 benchmarks 6
// pairs cannot call a lone 20% regression, 11 can. (The last look's nominal level, a little under
// alpha, scales q further; it is not counted.)
std::size_t plan_least_pairs(const SequentialDesign& design);
// The variance components assumed before any measurement (log scale): issue 21's figures on a
// 2-core VM (0.2% within a block, 0.3% between adjacent block pairs, 1% per process, so
// 1.4% between the two processes of a pair).
inline constexpr double kAssumedWithinBlockCv = 0.002;
inline constexpr double kAssumedBetweenBlocksCv = 0.003;
inline constexpr double kAssumedBetweenPairsCv = 0.014;

// The default budget, per benchmark compared (docs/gating-statistics.md: 120 s for about 12 benchmarks
// decides every row of the simulated machine in a third of it and still meets the targets on noise
// twice as bad; a run ends when every row is decided).
inline constexpr double kDefaultBudgetSecondsPerBenchmark = 10.0;

struct PairedPlan {
  std::size_t samples_per_block = 0;
  std::size_t block_pairs_per_pair = 0;
  std::size_t pairs = 0;  // the most, at the last look
  std::vector<std::size_t> looks;
  double seconds_per_pair = 0.0;
  double total_seconds = 0.0;          // pairs * seconds_per_pair: the budget used if nothing stops early
  std::optional<double> expected_mde;  // from the components at the last look's boundary
  bool fits_budget = true;  // false: not even one more pair of 2 block pairs fits (2 in all for a fresh plan)
};

// Absent for negative variances, non-positive sample_seconds, negative other costs or a budget <= 0.
// A missing between_pairs takes kAssumedBetweenPairsCv. pairs_done: the worker pairs already run, when
// the plan is made again with what is left of the budget: pairs counts them, and at least one more must
// fit (where none does, fits_budget is false and B is 2). samples_per_block: n given (at least 1), for
// B and K to be planned around it; absent, n is planned too.
std::optional<PairedPlan> plan_paired(const PairedVariance& variance, const PairedCosts& costs, double budget_seconds,
                                      const SequentialDesign& design = {}, std::size_t pairs_done = 0,
                                      std::optional<std::size_t> samples_per_block = std::nullopt);

}  // namespace gbx

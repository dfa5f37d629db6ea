#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/hodges_lehmann.h"  // hodges_lehmann_shift, in O(n log n) time and O(n) memory

// The statistics of comparing two records of one benchmark: BASE (the reference) against CAND (the
// candidate). Every function is pure; samples are expected finite (non-finite input gives the
// "nothing to say" value each function documents).

namespace gbx {

// The exact Mann-Whitney p-value is used when there are no ties, min(n1, n2) <= kMannWhitneyExactMinSide
// and n1 * n2 <= kMannWhitneyExactMaxProduct: the permutation law then costs a table of
// (min + 1) * (n1 n2 + 1) doubles and O(n1 n2 min(n1, n2)) additions (at most about 6e6), and just
// beyond it the normal approximation is within 2e-3 of the exact p for p in [0.01, 0.1] (checked
// against scipy's exact law at 21 x 21, 20 x 126, 25 x 100 and 10 x 251).
inline constexpr std::size_t kMannWhitneyExactMinSide = 20;
inline constexpr std::size_t kMannWhitneyExactMaxProduct = 2500;

// Two-sided Mann-Whitney U test of base against cand. U counts pairs with cand > base (ties 1/2).
// Exact p-value (the permutation law of U, by the recursion f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u)
// on the largest element, kept as probabilities) within the thresholds above; otherwise the normal
// approximation with tie correction and continuity correction, as scipy.stats.mannwhitneyu(cand, base,
// method='asymptotic') computes it. p is clamped to [0, 1]; n1 == 0, n2 == 0, non-finite input or all
// values equal give p = 1 (u is 0 for the first three).
struct MannWhitney {
  double u = 0;
  double p_value = 1;
  bool exact = false;
};
MannWhitney mann_whitney(const std::vector<double>& base, const std::vector<double>& cand);

// Cliff's delta: P(cand > base) - P(cand < base) over all pairs, in [-1, 1]. 0 for empty or
// non-finite input.
double cliffs_delta(const std::vector<double>& base, const std::vector<double>& cand);

// Benjamini-Hochberg adjusted p-values (q-values), in the input's order: q_(i) = min over k >= i of
// p_(k) m / k on the ascending p_(k), clamped to 1. NaN p-values are taken as 1.
std::vector<double> benjamini_hochberg(const std::vector<double>& p_values);

// The ratio CAND/BASE of the medians (type 7) with a bootstrap interval that resamples both sides
// independently: percentile method on `resamples` draws of median(cand*)/median(base*), each side's
// median drawn by inverse CDF from its exact bootstrap distribution (exact_median_distribution), with
// one std::mt19937_64 seeded with `seed` (base's draw first, then cand's; uniforms from the engine's top
// 53 bits, so the result does not depend on the standard library). The bounds are type 7 quantiles of
// the drawn ratios. method is "percentile-exact-median". Absent when either side is empty or
// non-finite, a median is <= 0, level is outside (0, 1), resamples is 0, or a drawn base median is <= 0.
struct RatioInterval {
  double ratio = 1;
  double lower = 1;
  double upper = 1;
  double level = 0.95;
  std::string method;
  std::uint64_t seed = 0;
  std::size_t resamples = 0;
};
std::optional<RatioInterval> median_ratio_interval(const std::vector<double>& base, const std::vector<double>& cand,
                                                   double level = 0.95, std::size_t resamples = 10000,
                                                   std::uint64_t seed = 0x5eed);

// faster/slower: a change shown on the unit of replication. same: no change beyond the noise band.
// inconclusive: the interval straddles a band edge (noise too large to decide either way).
// unreplicated: the samples of one process suggest a change beyond the band, but a side has one
// process, so the variation between processes (often several percent) was not measured.
// insufficient: a side has fewer than kMinSamplesPerSide samples.
enum class Verdict { faster, slower, same, inconclusive, unreplicated, insufficient };
const char* to_string(Verdict verdict);

// The fewest samples per side for any verdict but insufficient: the smallest n at which even the
// widest order-statistic interval for the median, [x_(1), x_(n)], covers 95% (1 - 2^(1 - n) = 0.969;
// at n = 5 it is 0.938), so that "same" cannot rest on an interval narrower than the data can support.
inline constexpr std::size_t kMinSamplesPerSide = 6;

// The interval rule: faster/slower when adjusted_p <= q AND the whole ratio interval lies outside
// [1 - band, 1 + band] (slower when lower > 1 + band, faster when upper < 1 - band); same when the
// whole interval is inside the band (bounds included), whatever p; everything else (NaN included)
// inconclusive.
Verdict decide(double adjusted_p, const RatioInterval& ratio, double noise_band = 0.02, double q = 0.05);

// What each side measured: the compare rule needs the unit of replication.
struct ComparisonEvidence {
  std::size_t base_samples = 0;
  std::size_t candidate_samples = 0;
  std::size_t base_processes = 1;
  std::size_t candidate_processes = 1;
  bool process_level() const { return base_processes >= 2 && candidate_processes >= 2; }
};

// The compare rule (docs/gating.md): insufficient when a side has fewer than kMinSamplesPerSide
// samples; otherwise the interval rule, except that faster/slower become unreplicated unless both
// sides have >= 2 processes (the ratio and p must then be the process-level ones).
Verdict decide(double adjusted_p, const RatioInterval& ratio, const ComparisonEvidence& evidence,
               double noise_band = 0.02, double q = 0.05);

// The gate's exit code over all rows: 1 when a row is slower; else 3 when a row is unreplicated or
// insufficient (no decision: a possible change was not replicated, or there is no evidence); else 0.
int gate_exit_code(const std::vector<Verdict>& verdicts);

}  // namespace gbx

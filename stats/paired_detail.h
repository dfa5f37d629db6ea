#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/students_t.hpp>

#include "stats/paired.h"

// What paired.cc, paired_verdict.cc and sequential.cc share; not part of the API.

namespace gbx {
namespace paired_detail {

// Log ratios are clamped to +/-50 before exp, so that an interval with an enormous critical value (a
// look that spends almost nothing) stays finite: e^50 is far beyond any ratio a benchmark shows, and
// JSON cannot hold infinity.
inline constexpr double kMaxAbsLogRatio = 50.0;
double clamp_log(double value);

// The sign-flip enumeration's limit: 2^24 sums take about 0.05 s.
inline constexpr std::size_t kSignFlipMaxEnumerated = 24;

// Student's t in double precision throughout: Boost's default promotes to long double, several times
// slower, for digits that no interval here needs.
using StudentT =
    boost::math::students_t_distribution<double,
                                         boost::math::policies::policy<boost::math::policies::promote_double<false>>>;
double t_quantile(double degrees_of_freedom, double p);

inline constexpr double kMadToSigma = 1.4826;  // 1 / Phi^-1(3/4): the MAD of a normal law is 0.6745 sigma
// A median has about pi/2 times the variance of a mean of the same normal samples.
inline constexpr double kMedianEfficiency = boost::math::constants::half_pi<double>();
// 1.4826 times the median absolute deviation about the median; 0 below 2 values. values finite.
double robust_spread(const std::vector<double>& values);
// The sample sd (n - 1) of 2 or more finite values (log ratios, which are finite by construction).
double sample_sd(const std::vector<double>& values);

// A pair's usable block pairs (positive finite samples on both sides), in order: each one's index in
// pair.block_pairs, d_j, order, and its two blocks' log medians. Computed once per pair and analysis:
// the pooled bounds and the pair's estimate both need the d_j, and the estimate's residuals the medians.
struct BlockRatios {
  std::vector<std::size_t> block_pair_index;
  std::vector<double> log_ratios;
  std::vector<bool> candidate_first;
  std::vector<double> base_log_medians;
  std::vector<double> candidate_log_medians;
};
BlockRatios block_ratios(const WorkerPairBlocks& pair);

// The block log ratios pulled in to the bounds (unchanged without bounds).
std::vector<double> winsorised(std::vector<double> log_ratios, const std::optional<BlockRatioBounds>& bounds);

// pooled_block_ratio_bounds and estimate_pair on ratios computed already.
std::optional<BlockRatioBounds> pooled_bounds_of(const std::vector<BlockRatios>& pairs, double noise_band);
std::optional<PairEstimate> estimate_from(const WorkerPairBlocks& pair, const BlockRatios& ratios,
                                          const std::optional<BlockRatioBounds>& bounds);

// The weighted test's intervals (stats/weighted_pairs.h) at two one-sided levels: the exact weighted
// sign-flip up to kWeightedSignFlipMaxPairs pairs, HKSJ beyond; method "<prefix>weighted-sign-flip" or
// "<prefix>weighted-hksj". Absent where either interval is.
struct RatioIntervals {
  RatioInterval difference;
  RatioInterval equivalence;
};
std::optional<RatioIntervals> weighted_ratio_intervals(const WeightedPairs& pairs, double difference_one_sided,
                                                       double equivalence_one_sided, const PairedOptions& options,
                                                       const std::string& method_prefix);

// The weighted test's part of analyze_pairs, over the pairs with an estimate (their winsorised block
// log ratios and orders): sets weighted, ratio, the intervals, p_value, test and se_log_ratio, and
// returns true; false (the analysis left as t had it) where the weights cannot be had.
bool analyze_weighted(PairedAnalysis& analysis, const std::vector<PairBlockLogRatios>& pairs,
                      const PairedOptions& options);

// The variance components of PairedVariance from the pairs' estimates and their x_k.
PairedVariance paired_variance(const std::vector<PairEstimate>& estimates, const std::vector<double>& x);

}  // namespace paired_detail
}  // namespace gbx

#pragma once

#include <cstddef>
#include <optional>
#include <vector>

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
double mean_of(const std::vector<double>& values);
double sample_sd(const std::vector<double>& values);  // n - 1; values.size() >= 2

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

// pooled_block_ratio_bounds and estimate_pair on ratios computed already.
std::optional<BlockRatioBounds> pooled_bounds_of(const std::vector<BlockRatios>& pairs, double noise_band);
std::optional<PairEstimate> estimate_from(const WorkerPairBlocks& pair, const BlockRatios& ratios,
                                          const std::optional<BlockRatioBounds>& bounds);

// The variance components of PairedVariance from the pairs' estimates and their x_k.
PairedVariance paired_variance(const std::vector<PairEstimate>& estimates, const std::vector<double>& x);

}  // namespace paired_detail
}  // namespace gbx

#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

// Change points in a benchmark's history: the runs from which its median moved to a new level.
//
// E-divisive means (Matteson & James 2014, "A nonparametric approach for multiple change point
// analysis of multivariate data"), as MongoDB's signal-processing service and DataStax Hunter use it
// on performance histories: a segment is split where the energy statistic Q between the runs before
// and after is largest, and the split is kept when a permutation test finds that Q unlikely under
// no change (p < alpha); the search recurses into the pieces, always testing the strongest candidate
// of all pieces next. The runs "after" end at any kappa up to the segment's end, as in Matteson and
// James (a bump in the middle of a segment then stands out against its own level); the exponent is 1.
// The permutation test shuffles the tested segment's runs only.
//
// Each run is itself an estimate: a median with an interval. A step that the runs' own intervals
// cover is not a change a reader can act on, however regular: a kept split must move the median of
// its segments by more than the typical (median) interval half-width on either side of it. Splits
// that fail are removed weakest first, and the neighbouring segments are merged and re-measured, as
// Hunter removes weak change points.
namespace gbx {

struct ChangePoint {
  std::size_t index;       // the first run of the new level (0-based)
  double before_median;    // the median of the run medians from the previous change point to index
  double after_median;     // ... from index to the next change point
  double relative_change;  // after_median / before_median - 1: positive is slower
  double p_value;          // of the permutation test that found it
};

// medians[i], lower[i], upper[i]: run i's median and its interval, oldest run first. alpha: the
// permutation test's level; seed: its permutations', so that a result is reproducible. Returns the
// change points in run order; none for fewer than 3 runs. Throws std::invalid_argument when the
// lengths differ or a value is not finite.
std::vector<ChangePoint> detect_change_points(const std::vector<double>& medians, const std::vector<double>& lower,
                                              const std::vector<double>& upper, double alpha, std::uint64_t seed);

// The scaled energy statistic Q of series[begin, split) against series[split, end) (Matteson & James
// eq. 5 with kappa = end, alpha = 1): m n / (m + n) times the energy distance
// 2/(m n) sum |x_i - y_j| - 1/C(m,2) sum_{i<k} |x_i - x_k| - 1/C(n,2) sum_{j<k} |y_j - y_k|, with a
// within-term taken as 0 for a side of one run. Requires begin < split < end <= series.size().
double energy_statistic(const std::vector<double>& series, std::size_t begin, std::size_t split, std::size_t end);

// Permutations per test; with alpha 0.05 a p-value has 1/(199+1) resolution.
constexpr int kChangePointPermutations = 199;

}  // namespace gbx

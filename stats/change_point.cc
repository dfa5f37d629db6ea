#include "stats/change_point.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "stats/statistics.h"

namespace gbx {

namespace {

struct Split {
  std::size_t index = 0;
  double q = 0.0;
};

// The split of values[begin, end) with the largest Q over every tau and kappa: X = [begin, tau),
// Y = [tau, kappa), kappa <= end (Matteson & James's search; kappa lets a bump in the middle of a
// segment stand out against its own level). prefix[r][c]: the sum of |v_r - v_k| over k < c, local
// indices, so that each (tau, kappa) costs O(1) and the whole search O(n^2). A permutation test asks
// only whether the largest Q reaches stop_at: the search ends once the best so far does.
Split best_split(const std::vector<double>& values, std::size_t begin, std::size_t end,
                 double stop_at = std::numeric_limits<double>::quiet_NaN()) {
  const std::size_t n = end - begin;
  std::vector<double> prefix(n * (n + 1), 0.0);
  const auto row = [&](std::size_t r, std::size_t c) -> double& { return prefix[r * (n + 1) + c]; };
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t c = 0; c < n; ++c) row(r, c + 1) = row(r, c) + std::fabs(values[begin + r] - values[begin + c]);
  }
  Split best;
  double within_x = 0.0;  // over pairs in [0, tau)
  for (std::size_t tau = 1; tau < n; ++tau) {
    within_x += row(tau - 1, tau - 1);
    const double m = static_cast<double>(tau);
    const double x_term = m > 1.0 ? within_x / (m * (m - 1.0) / 2.0) : 0.0;
    double between = 0.0;
    double within_y = 0.0;
    for (std::size_t kappa = tau + 1; kappa <= n; ++kappa) {
      const std::size_t added = kappa - 1;
      between += row(added, tau);
      within_y += row(added, added) - row(added, tau);
      const double k = static_cast<double>(kappa - tau);
      const double y_term = k > 1.0 ? within_y / (k * (k - 1.0) / 2.0) : 0.0;
      const double q = m * k / (m + k) * (2.0 * between / (m * k) - x_term - y_term);
      if (best.index == 0 || q > best.q) {
        best = {begin + tau, q};
        if (best.q >= stop_at) return best;  // never for a NaN stop_at
      }
    }
  }
  return best;
}

// The median of values[begin, end), a non-empty range (a half-width may be infinite: sorted, not checked).
double median_in(const std::vector<double>& values, std::size_t begin, std::size_t end) {
  std::vector<double> range(values.begin() + static_cast<std::ptrdiff_t>(begin),
                            values.begin() + static_cast<std::ptrdiff_t>(end));
  std::sort(range.begin(), range.end());
  return median_of_sorted(range);
}

struct Candidate {
  std::size_t index;
  double p_value;
};

// Whether the step at boundaries[k] exceeds the runs' own noise, and by how much (the step over the
// larger typical half-width); boundaries holds 0, the change points, and the series' size.
double step_over_noise(const std::vector<double>& medians, const std::vector<double>& half_widths,
                       const std::vector<std::size_t>& boundaries, std::size_t k) {
  const std::size_t begin = boundaries[k - 1];
  const std::size_t at = boundaries[k];
  const std::size_t end = boundaries[k + 1];
  const double step = std::fabs(median_in(medians, at, end) - median_in(medians, begin, at));
  const double noise = std::max(median_in(half_widths, begin, at), median_in(half_widths, at, end));
  if (noise <= 0.0) return step > 0.0 ? INFINITY : 0.0;
  return step / noise;
}

}  // namespace

double energy_statistic(const std::vector<double>& series, std::size_t begin, std::size_t split, std::size_t end) {
  if (!(begin < split && split < end && end <= series.size())) {
    throw std::invalid_argument("energy_statistic: requires begin < split < end <= size");
  }
  double between = 0.0;
  double left = 0.0;
  double right = 0.0;
  for (std::size_t i = begin; i < split; ++i) {
    for (std::size_t j = split; j < end; ++j) between += std::fabs(series[i] - series[j]);
    for (std::size_t k = i + 1; k < split; ++k) left += std::fabs(series[i] - series[k]);
  }
  for (std::size_t j = split; j < end; ++j) {
    for (std::size_t k = j + 1; k < end; ++k) right += std::fabs(series[j] - series[k]);
  }
  const double m = static_cast<double>(split - begin);
  const double n = static_cast<double>(end - split);
  const double within_left = m > 1.0 ? left / (m * (m - 1.0) / 2.0) : 0.0;
  const double within_right = n > 1.0 ? right / (n * (n - 1.0) / 2.0) : 0.0;
  return m * n / (m + n) * (2.0 * between / (m * n) - within_left - within_right);
}

std::vector<ChangePoint> detect_change_points(const std::vector<double>& medians, const std::vector<double>& lower,
                                              const std::vector<double>& upper, double alpha, std::uint64_t seed) {
  const std::size_t n = medians.size();
  if (lower.size() != n || upper.size() != n) {
    throw std::invalid_argument("detect_change_points: medians, lower and upper differ in length");
  }
  std::vector<double> half_widths(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(medians[i]) || !std::isfinite(lower[i]) || !std::isfinite(upper[i])) {
      throw std::invalid_argument("detect_change_points: run " + std::to_string(i) + " has a value that is not finite");
    }
    half_widths[i] = std::max(0.0, 0.5 * (upper[i] - lower[i]));
  }
  if (n < 3) return {};

  std::mt19937_64 rng(seed);
  std::vector<Candidate> found;
  std::vector<std::size_t> boundaries = {0, n};
  std::vector<double> shuffled;
  for (;;) {
    // The strongest split of any segment; segments of fewer than 2 runs cannot be split.
    Split strongest;
    std::size_t segment = 0;
    for (std::size_t k = 0; k + 1 < boundaries.size(); ++k) {
      if (boundaries[k + 1] - boundaries[k] < 2) continue;
      const Split s = best_split(medians, boundaries[k], boundaries[k + 1]);
      if (strongest.index == 0 || s.q > strongest.q) {
        strongest = s;
        segment = k;
      }
    }
    if (strongest.index == 0) break;
    // The permutation test: the largest Q of the segment's values in random order, as often as not
    // smaller than the observed one when the values have one level.
    const std::size_t begin = boundaries[segment];
    const std::size_t end = boundaries[segment + 1];
    int as_large = 0;
    for (int r = 0; r < kChangePointPermutations; ++r) {
      shuffled.assign(medians.begin() + static_cast<std::ptrdiff_t>(begin),
                      medians.begin() + static_cast<std::ptrdiff_t>(end));
      std::shuffle(shuffled.begin(), shuffled.end(), rng);
      if (best_split(shuffled, 0, shuffled.size(), strongest.q).q >= strongest.q) ++as_large;
    }
    const double p_value = (1.0 + as_large) / (1.0 + kChangePointPermutations);
    if (p_value >= alpha) break;
    found.push_back({strongest.index, p_value});
    boundaries.insert(std::upper_bound(boundaries.begin(), boundaries.end(), strongest.index), strongest.index);
  }

  // Remove steps within the runs' noise, weakest first, re-measuring the merged segments each time.
  for (;;) {
    std::size_t weakest = 0;
    double weakest_ratio = 1.0;
    for (std::size_t k = 1; k + 1 < boundaries.size(); ++k) {
      const double ratio = step_over_noise(medians, half_widths, boundaries, k);
      if (ratio <= weakest_ratio) {
        weakest_ratio = ratio;
        weakest = k;
      }
    }
    if (weakest == 0) break;
    boundaries.erase(boundaries.begin() + static_cast<std::ptrdiff_t>(weakest));
  }

  std::vector<ChangePoint> points;
  for (std::size_t k = 1; k + 1 < boundaries.size(); ++k) {
    const double before = median_in(medians, boundaries[k - 1], boundaries[k]);
    const double after = median_in(medians, boundaries[k], boundaries[k + 1]);
    const auto candidate =
        std::find_if(found.begin(), found.end(), [&](const Candidate& c) { return c.index == boundaries[k]; });
    points.push_back({boundaries[k], before, after, before != 0.0 ? after / before - 1.0 : 0.0,
                      candidate != found.end() ? candidate->p_value : 1.0});
  }
  return points;
}

}  // namespace gbx

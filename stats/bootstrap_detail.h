#pragma once

// The bootstrap's methods on data already sorted, shared by its files: resampling
// (bootstrap_resample.cc), the median's exact law (bootstrap_exact_median.cc), the mean's saddlepoint
// (bootstrap_saddlepoint.cc), and BCa and the percentile method over any of them (bootstrap.cc).
// Internal to gbx_stats: not installed; the interface is stats/bootstrap.h.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/bootstrap.h"

namespace gbx::bootstrap_detail {

// The midpoint as numpy's median computes it ((a + b) / 2), so that resampled medians equal to the
// estimate compare equal in z0's mid-rank count. Halving first cannot overflow and rounds the same.
inline double midpoint(double a, double b) { return 0.5 * a + 0.5 * b; }

// `resamples` Monte-Carlo resamples of the statistic, in resample order (see bootstrap.h).
std::vector<double> distribution_of_sorted(const std::vector<double>& sorted, BootstrapStatistic statistic,
                                           std::size_t resamples, std::uint64_t seed, unsigned threads);

std::vector<BootstrapAtom> exact_median_of_sorted(const std::vector<double>& sorted);

double lumpiness_of_sorted(const std::vector<double>& sorted);
// Why the saddlepoint would not do for these data, or nothing when it would.
std::optional<std::string> saddlepoint_check_sorted(const std::vector<double>& sorted);

// The Lugannani-Rice approximation of the resampled mean's law (bootstrap_saddlepoint.cc says how).
class MeanSaddlepoint {
 public:
  // `sorted`: sorted, finite, not constant.
  explicit MeanSaddlepoint(const std::vector<double>& sorted);

  double mean() const { return mean_; }

  // P(T <= 0): the estimate's (smooth) mid-rank.
  double at_estimate() const { return probability(0.0, cumulants(0.0)); }

  // P(resampled mean <= x).
  double cdf(double x) const;

  // The x with cdf(x) = p.
  double quantile(double p) const;

 private:
  // Where |w| is below this, 1/w - 1/u has lost too many digits to cancellation (both are ~1/w), and
  // it is interpolated linearly between its values at w = -/+kSmallW instead: it is smooth in s,
  // with the limit lambda3 / 6 at s = 0, so the interpolation is off by O(kSmallW^2).
  static constexpr double kSmallW = 1e-3;

  struct Cumulants {
    double first;   // K'(s)
    double second;  // K''(s)
    double w;       // sign(s) sqrt(2 (s K'(s) - K(s)))
  };

  Cumulants cumulants(double s) const;
  // Lugannani-Rice at the saddlepoint s.
  double probability(double s, const Cumulants& c) const;

  double n_;
  double mean_;
  double sd_ = 0.0;
  std::vector<double> y_;
  double reach_ = 0.0;    // max |y|
  double small_s_ = 0.0;  // |s| giving |w| ~ kSmallW (K''(0) = n)
  double correction_below_ = 0.0;
  double correction_above_ = 0.0;
};

}  // namespace gbx::bootstrap_detail

#pragma once

// The Monte-Carlo error of a BCa bound, for tolerances in the statistics tests.
#include <boost/math/distributions/normal.hpp>

#include <cmath>

namespace gbx_test {

// The variance, in probability, that one resample contributes to a BCa bound at adjusted percentile
// alpha: the drawn CDF's own binomial variance at alpha, plus the bias correction z0 (estimated from
// the same resamples) moving alpha through the BCa formula's slope. Divide by the resample count.
inline double bca_bound_variance_per_resample(double alpha, double z0, double acceleration, double tail) {
  const boost::math::normal_distribution<double> normal;
  const double shifted = z0 + boost::math::quantile(normal, tail);
  const double denominator = 1.0 - acceleration * shifted;
  const double slope = boost::math::pdf(normal, z0 + shifted / denominator) * (1.0 + 1.0 / (denominator * denominator));
  const double f = boost::math::cdf(normal, z0);
  const double z0_variance = f * (1.0 - f) / std::pow(boost::math::pdf(normal, z0), 2.0);
  return alpha * (1.0 - alpha) + slope * slope * z0_variance;
}

}  // namespace gbx_test

// BCa and the percentile method over a bootstrap distribution from any of the three sources:
// Monte Carlo (bootstrap_resample.cc), the median's exact law (bootstrap_exact_median.cc) or the
// mean's saddlepoint (bootstrap_saddlepoint.cc); and the jackknife acceleration BCa needs.

#include "stats/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include <boost/math/distributions/normal.hpp>

#include "stats/bootstrap_detail.h"

namespace gbx {
namespace {

using bootstrap_detail::midpoint;

// Jackknife acceleration from leave-one-out values given as (value, how many leave-one-outs give it).
std::optional<double> weighted_acceleration(const std::vector<std::pair<double, double>>& values) {
  double weight = 0.0;
  double sum = 0.0;
  for (const auto& [value, count] : values) {
    weight += count;
    sum += count * value;
  }
  const double dot = sum / weight;
  double squares = 0.0;
  double cubes = 0.0;
  for (const auto& [value, count] : values) {
    const double d = dot - value;
    squares += count * d * d;
    cubes += count * d * d * d;
  }
  if (!(squares > 0.0)) return std::nullopt;
  const double acceleration = cubes / (6.0 * squares * std::sqrt(squares));
  if (!std::isfinite(acceleration)) return std::nullopt;
  return acceleration;
}

std::optional<double> acceleration_of_sorted(const std::vector<double>& sorted, BootstrapStatistic statistic) {
  const std::size_t n = sorted.size();
  if (n < 2) return std::nullopt;
  if (statistic == BootstrapStatistic::mean) {
    // theta_(i) = (sum - x_i) / (n - 1), so d_i = (x_i - mean) / (n - 1); the factor cancels in a.
    const double center = *mean(sorted);  // finite, n >= 2
    std::vector<std::pair<double, double>> deviations;
    deviations.reserve(n);
    for (double value : sorted) deviations.emplace_back(center - value, 1.0);
    return weighted_acceleration(deviations);
  }
  const std::size_t half = n / 2;  // leave-one-outs on each side of the middle
  const auto count = static_cast<double>(half);
  if (n % 2 == 0) {
    // Leaving out one of the lower half leaves x[n/2] in the middle; one of the upper half, x[n/2 - 1].
    return weighted_acceleration({{sorted[n / 2], count}, {sorted[n / 2 - 1], count}});
  }
  // Odd n, m = (n - 1) / 2: leaving out i < m, i = m or i > m leaves an even count whose middle pair
  // is (x[m], x[m+1]), (x[m-1], x[m+1]) or (x[m-1], x[m]).
  const std::size_t m = n / 2;
  return weighted_acceleration({{midpoint(sorted[m], sorted[m + 1]), count},
                                {midpoint(sorted[m - 1], sorted[m + 1]), 1.0},
                                {midpoint(sorted[m - 1], sorted[m]), count}});
}

// ---- What BCa and the percentile method read from a bootstrap distribution -------------------------

class Distribution {
 public:
  Distribution() = default;
  Distribution(const Distribution&) = delete;
  Distribution& operator=(const Distribution&) = delete;
  virtual ~Distribution() = default;
  // P(theta* < value) + P(theta* = value) / 2.
  virtual double mid_rank(double value) const = 0;
  virtual double quantile(double p) const = 0;
  // The single value, when the distribution has no spread.
  virtual std::optional<double> only_value() const = 0;
};

class SampledDistribution final : public Distribution {
 public:
  explicit SampledDistribution(std::vector<double> values) : sorted_(std::move(values)) {
    std::sort(sorted_.begin(), sorted_.end());
  }
  double mid_rank(double value) const override {
    const auto below = std::lower_bound(sorted_.begin(), sorted_.end(), value);
    const auto not_above = std::upper_bound(below, sorted_.end(), value);
    return (static_cast<double>(below - sorted_.begin()) + 0.5 * static_cast<double>(not_above - below)) /
           static_cast<double>(sorted_.size());
  }
  // Type 7, as scipy's np.percentile.
  double quantile(double p) const override { return quantile_sorted(sorted_, p); }
  std::optional<double> only_value() const override {
    if (sorted_.front() == sorted_.back()) return sorted_.front();
    return std::nullopt;
  }

 private:
  std::vector<double> sorted_;
};

class AtomicDistribution final : public Distribution {
 public:
  explicit AtomicDistribution(std::vector<BootstrapAtom> atoms) : atoms_(std::move(atoms)) {
    double sum = 0.0;
    for (const BootstrapAtom& atom : atoms_) cumulative_.push_back(sum += atom.probability);
  }
  double mid_rank(double value) const override {
    const auto at = std::lower_bound(atoms_.begin(), atoms_.end(), value,
                                     [](const BootstrapAtom& atom, double v) { return atom.value < v; });
    const auto index = static_cast<std::size_t>(at - atoms_.begin());
    const double below = index == 0 ? 0.0 : cumulative_[index - 1];
    const double equal = at != atoms_.end() && at->value == value ? at->probability : 0.0;
    return below + 0.5 * equal;
  }
  // The smallest atom v with P(theta* <= v) >= p: where scipy's type 7 quantile of B resampled values
  // converges as B grows, whenever p is not exactly at a step of the CDF (which has probability 0).
  // Interpolating between atoms would be wrong: type 7 interpolates between neighbouring resampled
  // values, and at large B those are copies of the same atom, except when p lies within Monte-Carlo
  // error of a step; there scipy itself lands on either atom, or between, depending on its seed.
  double quantile(double p) const override {
    const auto at = std::lower_bound(cumulative_.begin(), cumulative_.end(), p);
    if (at == cumulative_.end()) return atoms_.back().value;
    return atoms_[static_cast<std::size_t>(at - cumulative_.begin())].value;
  }
  std::optional<double> only_value() const override {
    if (atoms_.size() == 1) return atoms_.front().value;
    return std::nullopt;
  }

 private:
  std::vector<BootstrapAtom> atoms_;
  std::vector<double> cumulative_;
};

class SaddlepointDistribution final : public Distribution {
 public:
  explicit SaddlepointDistribution(const std::vector<double>& sorted) : saddlepoint_(sorted) {}
  // Continuous, so P(= estimate) is 0; on a fine lattice the smooth CDF at an atom is its mid-rank.
  double mid_rank(double value) const override {
    return value == saddlepoint_.mean() ? saddlepoint_.at_estimate() : saddlepoint_.cdf(value);
  }
  double quantile(double p) const override { return saddlepoint_.quantile(p); }
  std::optional<double> only_value() const override { return std::nullopt; }

 private:
  bootstrap_detail::MeanSaddlepoint saddlepoint_;
};

std::string describe(BootstrapStatistic statistic, BootstrapMethod method, BootstrapDistribution distribution,
                     std::size_t resamples) {
  std::string text = std::string("bootstrap ") + to_string(method) + " (" + to_string(statistic) + ", ";
  switch (distribution) {
    case BootstrapDistribution::exact:
      return text + "exact bootstrap distribution)";
    case BootstrapDistribution::saddlepoint:
      return text + "saddlepoint approximation of the bootstrap distribution)";
    case BootstrapDistribution::monte_carlo:
      break;
  }
  return text + std::to_string(resamples) + " resamples)";
}

}  // namespace

const char* to_string(BootstrapStatistic statistic) {
  return statistic == BootstrapStatistic::mean ? "mean" : "median";
}

const char* to_string(BootstrapMethod method) { return method == BootstrapMethod::bca ? "BCa" : "percentile"; }

const char* to_string(BootstrapDistribution distribution) {
  switch (distribution) {
    case BootstrapDistribution::exact:
      return "exact";
    case BootstrapDistribution::saddlepoint:
      return "saddlepoint";
    case BootstrapDistribution::monte_carlo:
      break;
  }
  return "monte_carlo";
}

std::optional<double> jackknife_acceleration(const std::vector<double>& samples, BootstrapStatistic statistic) {
  if (!all_finite(samples)) return std::nullopt;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return acceleration_of_sorted(sorted, statistic);
}

std::optional<std::pair<double, double>> bca_percentiles(double bias_correction, double acceleration, double level) {
  if (!std::isfinite(bias_correction) || !std::isfinite(acceleration) || !(level > 0.0 && level < 1.0)) {
    return std::nullopt;
  }
  const boost::math::normal_distribution<double> normal;
  const auto adjusted = [&](double tail) -> std::optional<double> {
    const double shifted = bias_correction + boost::math::quantile(normal, tail);
    const double denominator = 1.0 - acceleration * shifted;
    if (!(denominator > 0.0)) return std::nullopt;
    return boost::math::cdf(normal, bias_correction + shifted / denominator);
  };
  const std::optional<double> lower = adjusted((1.0 - level) / 2.0);
  const std::optional<double> upper = adjusted(1.0 - (1.0 - level) / 2.0);
  if (!lower || !upper) return std::nullopt;
  return std::make_pair(*lower, *upper);
}

BootstrapResult bootstrap_interval(const std::vector<double>& samples, BootstrapStatistic statistic,
                                   const BootstrapOptions& options) {
  BootstrapResult result;
  result.method = options.method;
  const auto nothing = [&](const char* why) {
    result.reason = why;
    return result;
  };
  if (samples.empty()) return nothing("no samples");
  if (!all_finite(samples)) return nothing("a sample is not finite");
  if (!(options.level > 0.0 && options.level < 1.0)) return nothing("level outside (0, 1)");
  if (options.resamples == 0) return nothing("no resamples");
  if (samples.size() > std::numeric_limits<std::uint32_t>::max()) return nothing("more than 2^32 - 1 samples");

  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  result.estimate = statistic == BootstrapStatistic::mean ? *mean(sorted) : median_of_sorted(sorted);
  const double alpha = 1.0 - options.level;
  result.lower_percentile = alpha / 2.0;
  result.upper_percentile = 1.0 - alpha / 2.0;

  const auto point = [&](double value, const char* why) {
    result.interval = detail::Interval{value, value, options.level,
                                       describe(statistic, options.method, result.distribution, result.resamples)};
    result.degenerate = true;
    result.reason = why;
    return result;
  };
  // Every resample of constant data is that constant: the exact distribution, with nothing to draw.
  result.distribution = BootstrapDistribution::exact;
  if (n == 1) return point(sorted.front(), "one sample: the interval is that sample");
  if (sorted.front() == sorted.back()) return point(sorted.front(), "all samples equal");

  std::unique_ptr<Distribution> distribution;
  if (options.analytic && statistic == BootstrapStatistic::median) {
    result.distribution = BootstrapDistribution::exact;
    distribution = std::make_unique<AtomicDistribution>(bootstrap_detail::exact_median_of_sorted(sorted));
  } else if (options.analytic && !bootstrap_detail::saddlepoint_check_sorted(sorted)) {
    result.distribution = BootstrapDistribution::saddlepoint;
    distribution = std::make_unique<SaddlepointDistribution>(sorted);
  } else {
    result.distribution = BootstrapDistribution::monte_carlo;
    result.seed = options.seed;
    result.resamples = options.resamples;
    distribution = std::make_unique<SampledDistribution>(
        bootstrap_detail::distribution_of_sorted(sorted, statistic, options.resamples, options.seed, options.threads));
  }
  if (const std::optional<double> value = distribution->only_value()) {
    return point(*value, "the bootstrap distribution has no spread");
  }

  const auto percentile_interval = [&](const std::string& why) {
    result.method = BootstrapMethod::percentile;
    result.lower_percentile = alpha / 2.0;
    result.upper_percentile = 1.0 - alpha / 2.0;
    result.interval = detail::Interval{
        distribution->quantile(result.lower_percentile), distribution->quantile(result.upper_percentile), options.level,
        describe(statistic, BootstrapMethod::percentile, result.distribution, result.resamples)};
    if (!why.empty()) {
      result.degenerate = true;
      result.reason = why;
    }
    return result;
  };
  if (options.method == BootstrapMethod::percentile) return percentile_interval("");
  if (n == 2) return percentile_interval("two samples: at most three resampled values, percentile interval");

  // z0 from the mid-rank fraction of resampled statistics below the estimate (ties count half).
  const double fraction = distribution->mid_rank(result.estimate);
  if (!(fraction > 0.0 && fraction < 1.0)) {
    return percentile_interval(
        "every resampled statistic on one side of the estimate (z0 infinite), percentile interval");
  }
  const boost::math::normal_distribution<double> normal;
  const double z0 = boost::math::quantile(normal, fraction);
  result.bias_correction = z0;

  std::string note;
  std::optional<double> acceleration = acceleration_of_sorted(sorted, statistic);
  if (!acceleration) {
    note = "jackknife values all equal: acceleration taken as 0";
    acceleration = 0.0;
  }
  result.acceleration = acceleration;
  const std::optional<std::pair<double, double>> percentiles = bca_percentiles(z0, *acceleration, options.level);
  if (!percentiles) return percentile_interval("BCa denominator 1 - a (z0 + z) <= 0, percentile interval");
  const auto [lower, upper] = *percentiles;
  result.method = BootstrapMethod::bca;
  result.lower_percentile = lower;
  result.upper_percentile = upper;
  result.interval = detail::Interval{distribution->quantile(lower), distribution->quantile(upper), options.level,
                                     describe(statistic, BootstrapMethod::bca, result.distribution, result.resamples)};
  if (!note.empty()) {
    result.degenerate = true;
    result.reason = note;
  }
  return result;
}

}  // namespace gbx

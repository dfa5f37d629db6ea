#include "stats/sequential.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/normal.hpp>

#include "stats/comparison.h"
#include "stats/paired_detail.h"

namespace gbx {

using namespace paired_detail;

namespace {

// A boundary that spends nothing: no standard normal reaches it (P(Z > 40) is about 1e-350).
constexpr double kNoBoundary = 40.0;
// Grid points over each look's density (odd, for Simpson's rule), and its lower edge in standard
// deviations of S(t): below -10 sd the density is under 1e-22. 201 points reproduce the published
// boundaries to 4 decimals (tests/comparison/sequential_gtest.cc), as 2001 do, in a tenth of the time.
constexpr std::size_t kGridPoints = 201;
constexpr double kGridLowerSds = 10.0;

double normal_upper(double z) { return 0.5 * std::erfc(z / boost::math::constants::root_two<double>()); }
double normal_density(double z) { return std::exp(-0.5 * z * z) / boost::math::constants::root_two_pi<double>(); }

// The density of S(t) on an even grid over [lower, upper], restricted to the paths that have not
// crossed an earlier boundary (its integral is the probability of not having stopped).
struct GridDensity {
  double lower = 0.0;
  double upper = 0.0;
  std::vector<double> values;
  double step() const { return (upper - lower) / static_cast<double>(values.size() - 1); }
  double point(std::size_t i) const { return lower + step() * static_cast<double>(i); }
};

double simpson_weight(std::size_t i, std::size_t n) {
  if (i == 0 || i + 1 == n) return 1.0 / 3.0;
  return i % 2 == 1 ? 4.0 / 3.0 : 2.0 / 3.0;
}

// P(not stopped before, S(t) >= b) for S(t) = u + N(0, increment) from the density of u.
double crossing_probability(const GridDensity& density, double increment, double b) {
  const double sd = std::sqrt(increment);
  const double h = density.step();
  double sum = 0.0;
  for (std::size_t i = 0; i < density.values.size(); ++i) {
    sum += simpson_weight(i, density.values.size()) * density.values[i] * normal_upper((b - density.point(i)) / sd);
  }
  return sum * h;
}

GridDensity advance(const GridDensity& density, double increment, double lower, double upper) {
  const double sd = std::sqrt(increment);
  GridDensity next;
  next.lower = lower;
  next.upper = upper;
  next.values.assign(kGridPoints, 0.0);
  const double h = density.step();
  for (std::size_t k = 0; k < kGridPoints; ++k) {
    const double s = next.point(k);
    double sum = 0.0;
    for (std::size_t i = 0; i < density.values.size(); ++i) {
      sum += simpson_weight(i, density.values.size()) * density.values[i] * normal_density((s - density.point(i)) / sd);
    }
    next.values[k] = sum * h / sd;
  }
  return next;
}

struct Boundaries {
  std::optional<std::vector<double>> difference;
  std::optional<std::vector<double>> equivalence;
};

// The boundaries of a row's looks. Rows share their looks, and a simulation asks for the same ones run
// after run, while each costs about a millisecond: a small memo per thread (cleared when full, so it
// stays bounded).
const Boundaries& boundaries_for(const std::vector<double>& information, const std::vector<double>& fractions,
                                 const SequentialDesign& design) {
  thread_local std::map<std::vector<double>, Boundaries> memo;
  std::vector<double> key = information;
  key.insert(key.end(), fractions.begin(), fractions.end());
  key.push_back(design.options.alpha);
  key.push_back(design.options.equivalence_alpha);
  key.push_back(design.spending == SpendingFunction::pocock ? 1.0 : 0.0);
  auto found = memo.find(key);
  if (found != memo.end()) return found->second;
  if (memo.size() >= 1024) memo.clear();
  Boundaries computed{spending_boundaries(information, fractions, design.options.alpha / 2.0, design.spending),
                      spending_boundaries(information, fractions, design.options.equivalence_alpha, design.spending)};
  return memo.emplace(std::move(key), std::move(computed)).first->second;
}

// A row's repeated confidence intervals at one look, with the multipliers that made them.
struct RepeatedIntervals {
  RatioInterval difference;
  RatioInterval equivalence;
  double difference_critical = 0.0;
  double equivalence_critical = 0.0;
};

// Student t about the mean of the x_k, at the look's t critical values.
RepeatedIntervals repeated_t(const PairedAnalysis& analysis, double difference_critical, double equivalence_critical,
                             const PairedOptions& options) {
  const double se = *analysis.sd_log_ratio / std::sqrt(static_cast<double>(analysis.pairs));
  const auto interval = [&](double critical, double level) {
    RatioInterval made;
    made.ratio = analysis.ratio;
    made.lower = std::exp(clamp_log(analysis.mean_log_ratio - critical * se));
    made.upper = std::exp(clamp_log(analysis.mean_log_ratio + critical * se));
    made.level = level;
    made.method = "repeated-paired-t-log-ratios";
    return made;
  };
  return {interval(difference_critical, 1.0 - options.alpha),
          interval(equivalence_critical, 1.0 - 2.0 * options.equivalence_alpha), difference_critical,
          equivalence_critical};
}

// The exact signed-rank intervals at the boundaries' one-sided levels: below enough pairs (2^-K above
// the level) a side stays unbounded, and the row cannot stop yet. Absent where the signed rank has no
// interval (beyond kSignedRankMaxPairs), which leaves t.
std::optional<RepeatedIntervals> repeated_signed_rank(const PairedAnalysis& analysis, double difference_z,
                                                      double equivalence_z, const PairedOptions& options) {
  std::vector<double> x;
  x.reserve(analysis.estimates.size());
  for (const PairEstimate& e : analysis.estimates) x.push_back(e.log_ratio);
  auto difference = signed_rank_ratio_interval(x, std::max(normal_upper(difference_z), 1e-300), 1.0 - options.alpha);
  auto equivalence = signed_rank_ratio_interval(x, std::max(normal_upper(equivalence_z), 1e-300),
                                                1.0 - 2.0 * options.equivalence_alpha);
  if (!difference || !equivalence) return std::nullopt;
  difference->method = equivalence->method = "repeated-signed-rank-hodges-lehmann";
  return RepeatedIntervals{*difference, *equivalence, difference_z, equivalence_z};
}

// The weighted test's intervals at the boundaries' one-sided levels (exact sign-flip: a side stays
// unbounded while 2^-K is above the level; HKSJ beyond kWeightedSignFlipMaxPairs at the same tail).
std::optional<RepeatedIntervals> repeated_weighted(const PairedAnalysis& analysis, double difference_z,
                                                   double equivalence_z, const PairedOptions& options) {
  const auto intervals =
      paired_detail::weighted_ratio_intervals(*analysis.weighted, std::max(normal_upper(difference_z), 1e-300),
                                              std::max(normal_upper(equivalence_z), 1e-300), options, "repeated-");
  if (!intervals) return std::nullopt;
  return RepeatedIntervals{intervals->difference, intervals->equivalence, difference_z, equivalence_z};
}

}  // namespace

const char* to_string(SpendingFunction spending) {
  return spending == SpendingFunction::pocock ? "lan-demets-pocock" : "lan-demets-obrien-fleming";
}

double spent_alpha(SpendingFunction spending, double fraction, double one_sided_alpha) {
  const double t = std::clamp(fraction, 0.0, 1.0);
  if (t <= 0.0) return 0.0;
  if (spending == SpendingFunction::pocock)
    return one_sided_alpha * std::log1p((boost::math::constants::e<double>() - 1.0) * t);
  const double z = boost::math::quantile(boost::math::complement(boost::math::normal(), one_sided_alpha / 2.0));
  return 2.0 * normal_upper(z / std::sqrt(t));
}

std::optional<std::vector<double>> spending_boundaries(const std::vector<double>& fractions, double one_sided_alpha,
                                                       SpendingFunction spending) {
  return spending_boundaries(fractions, fractions, one_sided_alpha, spending);
}

std::optional<std::vector<double>> spending_boundaries(const std::vector<double>& information,
                                                       const std::vector<double>& fractions, double one_sided_alpha,
                                                       SpendingFunction spending) {
  if (fractions.empty() || information.size() != fractions.size() ||
      !(one_sided_alpha > 0.0 && one_sided_alpha < 0.5)) {
    return std::nullopt;
  }
  for (std::size_t j = 0; j < fractions.size(); ++j) {
    const double previous_fraction = j == 0 ? 0.0 : fractions[j - 1];
    const double previous_information = j == 0 ? 0.0 : information[j - 1];
    if (!(fractions[j] >= previous_fraction && fractions[j] > 0.0 && fractions[j] <= 1.0)) return std::nullopt;
    if (!(information[j] > previous_information && std::isfinite(information[j]))) return std::nullopt;
  }
  // The Brownian motion runs in information time, scaled so that the last look is at 1; only the ratios
  // matter for the joint law of the Z_j.
  std::vector<double> time(information.size());
  for (std::size_t j = 0; j < time.size(); ++j) time[j] = information[j] / information.back();
  const auto spent = [&](std::size_t j) { return spent_alpha(spending, fractions[j], one_sided_alpha); };

  std::vector<double> boundaries;
  // S(0) = 0 is a point mass, so the first look's boundary is in closed form.
  const double first_spend = spent(0);
  const double c1 =
      first_spend <= 0.0
          ? kNoBoundary
          : std::min(kNoBoundary, boost::math::quantile(boost::math::complement(boost::math::normal(), first_spend)));
  boundaries.push_back(c1);
  if (fractions.size() == 1) return boundaries;

  GridDensity density;
  const double sd1 = std::sqrt(time[0]);
  density.lower = -kGridLowerSds * sd1;
  density.upper = std::min(c1, kGridLowerSds) * sd1;
  density.values.assign(kGridPoints, 0.0);
  for (std::size_t i = 0; i < kGridPoints; ++i) density.values[i] = normal_density(density.point(i) / sd1) / sd1;

  for (std::size_t j = 1; j < fractions.size(); ++j) {
    const double t = time[j];
    const double increment = t - time[j - 1];
    const double target = spent(j) - spent(j - 1);
    double c = kNoBoundary;
    if (target > 1e-300 && crossing_probability(density, increment, kNoBoundary * std::sqrt(t)) < target) {
      // P(cross at c) falls as c rises: bisection on [-kNoBoundary, kNoBoundary].
      double low = -kNoBoundary;
      double high = kNoBoundary;
      while (high - low > 1e-8) {
        const double middle = 0.5 * (low + high);
        (crossing_probability(density, increment, middle * std::sqrt(t)) > target ? low : high) = middle;
      }
      c = 0.5 * (low + high);
    }
    boundaries.push_back(c);
    if (j + 1 < fractions.size()) {
      const double sd = std::sqrt(t);
      density = advance(density, increment, -kGridLowerSds * sd, std::min(c, kGridLowerSds) * sd);
    }
  }
  return boundaries;
}

double t_critical_for(double z, std::size_t pairs) {
  const double degrees = static_cast<double>(pairs < 2 ? 1 : pairs - 1);
  // A boundary that spends nothing (kNoBoundary) has a tail below any double; in double precision
  // Boost's t quantile overflows on tails below about 1e-250 (at 3 degrees of freedom; 1e-300 from 5
  // up), and a gbx ab run whose planned pairs grew look by look met one. At 1e-200 t is at least the
  // normal's 30.2: an interval that decides nothing, as the boundary means.
  const double tail = std::max(normal_upper(z), 1e-200);
  return boost::math::quantile(boost::math::complement(StudentT(degrees), tail));
}

std::vector<std::size_t> look_schedule(std::size_t max_pairs) {
  std::vector<std::size_t> looks;
  for (std::size_t k = 5; k < max_pairs; k *= 2) looks.push_back(k);
  if (max_pairs > 0) looks.push_back(max_pairs);
  return looks;
}

void sequential_look(const std::vector<std::vector<WorkerPairBlocks>>& pairs_by_benchmark,
                     std::vector<SequentialRow>& rows, const SequentialDesign& design, bool final_look) {
  rows.resize(pairs_by_benchmark.size());
  const double max_pairs = static_cast<double>(design.looks.empty() ? 1 : design.looks.back());
  const PairedOptions& options = design.options;
  std::vector<bool> analysed(rows.size(), false);
  for (std::size_t b = 0; b < rows.size(); ++b) {
    SequentialRow& row = rows[b];
    if (row.stopped) continue;
    std::optional<PairedAnalysis> analysis = analyze_pairs(pairs_by_benchmark[b], options);
    if (!analysis) {
      if (final_look) row.stopped = true;  // nothing measured: stays insufficient
      row.decision.verdict = Verdict::insufficient;
      continue;
    }
    const double previous = row.fractions.empty() ? 0.0 : row.fractions.back();
    const double pairs = static_cast<double>(analysis->pairs);
    double fraction = final_look ? 1.0 : std::min(1.0, pairs / max_pairs);
    const bool new_information = row.information.empty() || pairs > row.information.back();
    if (!new_information) {  // no pair since the last look: its decision stands
      if (final_look) row.stopped = true;
      continue;
    }
    if (fraction <= previous) {
      if (!final_look) continue;  // e.g. a pair that failed: wait for more information
      fraction = previous;        // the alpha was all spent at the last look; this one spends nothing
    }
    row.information.push_back(pairs);
    row.fractions.push_back(fraction);
    row.looks_taken = row.fractions.size();
    const Boundaries& boundaries = boundaries_for(row.information, row.fractions, design);
    const auto& difference_z = boundaries.difference;
    const auto& equivalence_z = boundaries.equivalence;
    if (!difference_z || !equivalence_z) continue;
    row.nominal_alpha = 2.0 * normal_upper(difference_z->back());
    row.difference = analysis->difference_interval;
    row.equivalence = analysis->equivalence_interval;
    if (analysis->replicated) {
      const double t_difference = t_critical_for(difference_z->back(), analysis->pairs);
      std::optional<RepeatedIntervals> repeated;
      if (analysis->signed_rank)
        repeated = repeated_signed_rank(*analysis, difference_z->back(), equivalence_z->back(), options);
      if (analysis->weighted)
        repeated = repeated_weighted(*analysis, difference_z->back(), equivalence_z->back(), options);
      if (!repeated)
        repeated = repeated_t(*analysis, t_difference, t_critical_for(equivalence_z->back(), analysis->pairs), options);
      row.difference = repeated->difference;
      row.equivalence = repeated->equivalence;
      row.difference_critical = repeated->difference_critical;
      row.equivalence_critical = repeated->equivalence_critical;
      row.mde =
          minimum_detectable_change(*analysis->se_log_ratio * std::sqrt(static_cast<double>(analysis->pairs)),
                                    analysis->pairs, options.noise_band, options.alpha, options.power, t_difference);
    }
    row.analysis = std::move(analysis);
    analysed[b] = true;
  }

  std::vector<double> p_values(rows.size(), 1.0);
  for (std::size_t b = 0; b < rows.size(); ++b) {
    if (rows[b].analysis) p_values[b] = rows[b].analysis->p_value;
  }
  const std::vector<double> adjusted = benjamini_hochberg(p_values);
  for (std::size_t b = 0; b < rows.size(); ++b) {
    SequentialRow& row = rows[b];
    if (!analysed[b]) continue;
    row.adjusted_p = adjusted[b];
    if (!row.difference || !row.equivalence) {
      row.decision.verdict = Verdict::insufficient;
    } else {
      const double q = design.q * row.nominal_alpha / options.alpha;
      row.decision =
          decide_paired(*row.difference, *row.equivalence, row.analysis->replicated, row.analysis->base_samples,
                        row.analysis->candidate_samples, row.adjusted_p, options, q);
    }
    const Verdict v = row.decision.verdict;
    if (final_look || v == Verdict::faster || v == Verdict::slower || v == Verdict::same) row.stopped = true;
  }
}

}  // namespace gbx

#include "stats/comparison.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <boost/math/distributions/normal.hpp>

#include "stats/bootstrap.h"
#include "stats/statistics.h"

namespace gbx {
namespace {

// Pairs with cand > base and pairs with cand < base, by binary search in the sorted base.
struct PairCounts {
  double greater = 0;
  double less = 0;
};

PairCounts count_pairs(const std::vector<double>& base, const std::vector<double>& cand) {
  std::vector<double> sorted = base;
  std::sort(sorted.begin(), sorted.end());
  PairCounts counts;
  for (double c : cand) {
    const auto low = std::lower_bound(sorted.begin(), sorted.end(), c);
    const auto high = std::upper_bound(low, sorted.end(), c);
    counts.greater += static_cast<double>(low - sorted.begin());
    counts.less += static_cast<double>(sorted.end() - high);
  }
  return counts;
}

// P(U >= u) for U the number of pairs (a, b), a from a group of m and b from a group of n, with a > b,
// under random assignment of m + n distinct values. p(i, j, u): the largest value is from the first
// group with probability i / (i + j) and then exceeds all j others, so
// p(i, j, u) = i / (i + j) p(i - 1, j, u - j) + j / (i + j) p(i, j - 1, u). Only non-negative terms are
// added, so the tail keeps its relative accuracy far out.
double exact_upper_tail(std::size_t m, std::size_t n, std::size_t u) {
  if (m > n) std::swap(m, n);  // the law is symmetric in m and n; the table is (m + 1) rows
  const std::size_t width = m * n + 1;
  std::vector<double> table((m + 1) * width, 0.0);
  for (std::size_t i = 0; i <= m; ++i) table[i * width] = 1.0;  // j = 0: U = 0 surely
  for (std::size_t j = 1; j <= n; ++j) {
    for (std::size_t i = 1; i <= m; ++i) {
      const double from_first = static_cast<double>(i) / static_cast<double>(i + j);
      const double from_second = 1.0 - from_first;
      double* row = &table[i * width];
      const double* previous = &table[(i - 1) * width];  // already at j
      for (std::size_t k = i * j + 1; k-- > 0;) {
        row[k] = from_second * row[k] + (k >= j ? from_first * previous[k - j] : 0.0);
      }
    }
  }
  double tail = 0.0;
  for (std::size_t k = u; k < width; ++k) tail += table[m * width + k];
  return tail;
}

}  // namespace

MannWhitney mann_whitney(const std::vector<double>& base, const std::vector<double>& cand) {
  MannWhitney result;
  if (base.empty() || cand.empty() || !all_finite(base) || !all_finite(cand)) return result;
  const PairCounts counts = count_pairs(base, cand);
  const double n1 = static_cast<double>(base.size());
  const double n2 = static_cast<double>(cand.size());
  const double pairs = n1 * n2;
  const double ties = pairs - counts.greater - counts.less;
  result.u = counts.greater + 0.5 * ties;
  // The two-sided p-value doubles the tail beyond the larger of U and n1 n2 - U.
  const double extreme = std::max(result.u, pairs - result.u);

  std::vector<double> pooled = base;
  pooled.insert(pooled.end(), cand.begin(), cand.end());
  std::sort(pooled.begin(), pooled.end());
  double tie_term = 0.0;  // sum of t^3 - t over groups of t equal values
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i + 1;
    while (j < pooled.size() && pooled[j] == pooled[i]) ++j;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }

  const std::size_t small = std::min(base.size(), cand.size());
  if (tie_term == 0.0 && small <= kMannWhitneyExactMinSide &&
      base.size() * cand.size() <= kMannWhitneyExactMaxProduct) {
    result.exact = true;
    const double tail = exact_upper_tail(base.size(), cand.size(), static_cast<std::size_t>(extreme));
    result.p_value = std::clamp(2.0 * tail, 0.0, 1.0);
    return result;
  }
  const double total = n1 + n2;
  const double variance = pairs / 12.0 * ((total + 1.0) - tie_term / (total * (total - 1.0)));
  if (!(variance > 0.0)) return result;  // all values equal: no evidence either way
  const double z = (extreme - pairs / 2.0 - 0.5) / std::sqrt(variance);
  const boost::math::normal normal;
  result.p_value = std::clamp(2.0 * boost::math::cdf(boost::math::complement(normal, z)), 0.0, 1.0);
  return result;
}

double cliffs_delta(const std::vector<double>& base, const std::vector<double>& cand) {
  if (base.empty() || cand.empty() || !all_finite(base) || !all_finite(cand)) return 0.0;
  const PairCounts counts = count_pairs(base, cand);
  const double pairs = static_cast<double>(base.size()) * static_cast<double>(cand.size());
  return std::clamp((counts.greater - counts.less) / pairs, -1.0, 1.0);
}

std::vector<double> benjamini_hochberg(const std::vector<double>& p_values) {
  const std::size_t m = p_values.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto p_at = [&](std::size_t i) { return std::isnan(p_values[i]) ? 1.0 : std::clamp(p_values[i], 0.0, 1.0); };
  // Stable, so equal p-values keep the input order (their q-values are equal anyway).
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p_at(a) < p_at(b); });
  std::vector<double> adjusted(m, 1.0);
  double running = 1.0;  // the minimum over the larger ranks makes the q-values monotone in p
  for (std::size_t rank = m; rank > 0; --rank) {
    const std::size_t index = order[rank - 1];
    running = std::min(running, p_at(index) * static_cast<double>(m) / static_cast<double>(rank));
    adjusted[index] = running;
  }
  return adjusted;
}

std::optional<RatioInterval> median_ratio_interval(const std::vector<double>& base, const std::vector<double>& cand,
                                                   double level, std::size_t resamples, std::uint64_t seed) {
  if (!(level > 0.0 && level < 1.0) || resamples == 0) return std::nullopt;
  const std::optional<double> base_median = median(base);
  const std::optional<double> cand_median = median(cand);
  if (!base_median || !cand_median || !(*base_median > 0.0) || !(*cand_median > 0.0)) return std::nullopt;

  const MedianLawSampler base_law(base);
  const MedianLawSampler cand_law(cand);
  if (base_law.empty() || cand_law.empty()) return std::nullopt;

  std::mt19937_64 engine(seed);
  std::vector<double> ratios(resamples);
  for (double& ratio : ratios) {
    const double b = base_law.draw(engine);
    const double c = cand_law.draw(engine);
    if (!(b > 0.0)) return std::nullopt;
    ratio = c / b;
  }

  // Type 7 quantiles by selection, without sorting all the ratios.
  const auto quantile_of = [&ratios](double q) {
    const double h = static_cast<double>(ratios.size() - 1) * q;
    const auto low = static_cast<std::size_t>(std::floor(h));
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(low), ratios.end());
    const double at_low = ratios[low];
    if (low + 1 >= ratios.size()) return at_low;
    const double at_high = *std::min_element(ratios.begin() + static_cast<std::ptrdiff_t>(low) + 1, ratios.end());
    return at_low + (h - static_cast<double>(low)) * (at_high - at_low);
  };
  RatioInterval interval;
  interval.ratio = *cand_median / *base_median;
  interval.lower = quantile_of((1.0 - level) / 2.0);
  interval.upper = quantile_of((1.0 + level) / 2.0);
  interval.level = level;
  interval.method = "percentile-exact-median";
  interval.seed = seed;
  interval.resamples = resamples;
  return interval;
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster:
      return "faster";
    case Verdict::slower:
      return "slower";
    case Verdict::same:
      return "same";
    case Verdict::inconclusive:
      return "inconclusive";
    case Verdict::unreplicated:
      return "unreplicated";
    case Verdict::insufficient:
      return "insufficient";
  }
  return "inconclusive";
}

Verdict decide(double adjusted_p, const RatioInterval& ratio, double noise_band, double q) {
  const double low_edge = 1.0 - noise_band;
  const double high_edge = 1.0 + noise_band;
  if (adjusted_p <= q) {
    if (ratio.lower > high_edge) return Verdict::slower;
    if (ratio.upper < low_edge) return Verdict::faster;
  }
  if (ratio.lower >= low_edge && ratio.upper <= high_edge) return Verdict::same;
  return Verdict::inconclusive;
}

Verdict decide(double adjusted_p, const RatioInterval& ratio, const ComparisonEvidence& evidence, double noise_band,
               double q) {
  if (evidence.base_samples < kMinSamplesPerSide || evidence.candidate_samples < kMinSamplesPerSide) {
    return Verdict::insufficient;
  }
  const Verdict verdict = decide(adjusted_p, ratio, noise_band, q);
  const bool changed = verdict == Verdict::faster || verdict == Verdict::slower;
  return changed && !evidence.process_level() ? Verdict::unreplicated : verdict;
}

int gate_exit_code(const std::vector<Verdict>& verdicts) {
  const auto any = [&](auto predicate) { return std::any_of(verdicts.begin(), verdicts.end(), predicate); };
  if (any([](Verdict v) { return v == Verdict::slower; })) return 1;
  if (any([](Verdict v) { return v == Verdict::unreplicated || v == Verdict::insufficient; })) return 3;
  return 0;
}

}  // namespace gbx

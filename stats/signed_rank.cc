#include "stats/signed_rank.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace gbx {
namespace {

bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

double median_of_sorted(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

// Ways to pick a subset of `weights` with each sum 0 .. sum(weights), as doubles.
std::vector<double> subset_sum_counts(const std::vector<long>& weights) {
  long total = 0;
  for (long w : weights) total += w;
  std::vector<double> counts(static_cast<std::size_t>(total) + 1, 0.0);
  counts[0] = 1.0;
  long reached = 0;
  for (long w : weights) {
    reached += w;
    for (long t = reached; t >= w; --t) counts[static_cast<std::size_t>(t)] += counts[static_cast<std::size_t>(t - w)];
  }
  return counts;
}

}  // namespace

std::vector<double> signed_rank_cdf(std::size_t k) {
  std::vector<long> ranks;
  for (std::size_t r = 1; r <= k; ++r) ranks.push_back(static_cast<long>(r));
  std::vector<double> counts = subset_sum_counts(ranks);
  const double total = std::ldexp(1.0, static_cast<int>(k));
  double running = 0.0;
  for (double& c : counts) {
    running += c;
    c = std::min(1.0, running / total);
  }
  return counts;
}

std::optional<double> signed_rank_p_value(const std::vector<double>& values) {
  if (values.empty() || values.size() > kSignedRankMaxPairs || !all_finite(values)) return std::nullopt;
  const std::size_t k = values.size();
  std::vector<std::size_t> order(k);
  for (std::size_t i = 0; i < k; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return std::fabs(values[a]) < std::fabs(values[b]); });
  // Doubled mid-ranks: a run of ties at positions i..j (0-based) shares rank (i + j + 2) / 2.
  std::vector<long> doubled(k, 0);
  for (std::size_t i = 0; i < k;) {
    std::size_t j = i;
    while (j + 1 < k && std::fabs(values[order[j + 1]]) == std::fabs(values[order[i]])) ++j;
    for (std::size_t t = i; t <= j; ++t) doubled[order[t]] = static_cast<long>(i + j + 2);
    i = j + 1;
  }
  std::vector<long> weights;
  long observed_positive = 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (values[i] == 0.0) continue;
    weights.push_back(doubled[i]);
    if (values[i] > 0.0) observed_positive += doubled[i];
  }
  if (weights.empty()) return 1.0;
  long total = 0;
  for (long w : weights) total += w;
  const std::vector<double> counts = subset_sum_counts(weights);
  // S = 2 A - total for A the positive part: |S| >= |S_observed| in integers, so ties count exactly.
  const long observed = std::labs(2 * observed_positive - total);
  double extreme = 0.0;
  double all = 0.0;
  for (long a = 0; a <= total; ++a) {
    const double c = counts[static_cast<std::size_t>(a)];
    all += c;
    if (std::labs(2 * a - total) >= observed) extreme += c;
  }
  return std::clamp(extreme / all, 0.0, 1.0);
}

std::optional<WalshInterval> walsh_interval(const std::vector<double>& values, double one_sided_alpha) {
  if (values.empty() || values.size() > kSignedRankMaxPairs || !all_finite(values) || !(one_sided_alpha > 0.0) ||
      !(one_sided_alpha < 0.5)) {
    return std::nullopt;
  }
  const std::size_t k = values.size();
  std::vector<double> walsh;
  walsh.reserve(k * (k + 1) / 2);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = i; j < k; ++j) walsh.push_back(0.5 * (values[i] + values[j]));
  }
  std::sort(walsh.begin(), walsh.end());
  WalshInterval interval;
  interval.estimate = median_of_sorted(walsh);
  const std::vector<double> cdf = signed_rank_cdf(k);
  // c - 1 = the largest t with P(T+ <= t) <= alpha; the cdf rises, so count the t that qualify.
  std::size_t c = 0;
  while (c < cdf.size() && cdf[c] <= one_sided_alpha) ++c;
  const double infinity = std::numeric_limits<double>::infinity();
  if (c == 0) {
    interval.lower = -infinity;
    interval.upper = infinity;
    interval.achieved_one_sided = 0.0;
    return interval;
  }
  c = std::min(c, walsh.size() / 2 + walsh.size() % 2);  // never past the median
  interval.bounded = true;
  interval.lower = walsh[c - 1];
  interval.upper = walsh[walsh.size() - c];
  interval.achieved_one_sided = cdf[c - 1];
  return interval;
}

}  // namespace gbx

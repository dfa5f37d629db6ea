#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>

#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include "stats/bootstrap.h"
#include "stats/bootstrap_detail.h"

namespace gbx {
namespace bootstrap_detail {
namespace {

// ---- The median's exact bootstrap distribution ----------------------------------------------------
//
// Sorted data with distinct values v_1 < ... < v_m; F_j = #{x <= v_j} / n, S_j = 1 - F_j, F_0 = 0,
// S_0 = 1. N_j, the number of draws <= v_j in a resample, is Binomial(n, F_j), and the resample's
// k-th smallest value X*_(k) is <= v_j exactly when N_j >= k, so
//   P(X*_(k) <= v_j) = P(Binomial(n, F_j) >= k) = I_{F_j}(k, n - k + 1)   (regularized beta).
// Odd n: the median is X*_(k), k = (n + 1) / 2, and that is its law.
// Even n: the type 7 median is (X*_(k) + X*_(k+1)) / 2, k = n / 2, which needs the joint law of the
// two middle order statistics. For i < j, X*_(k) = v_i and X*_(k+1) = v_j exactly when some k of the
// n draws are all <= v_i with at least one equal to v_i, and the other n - k are all >= v_j with at
// least one equal to v_j (nothing lands strictly between). Choosing which k draws are the low ones,
// the multinomial sum over the counts below v_i, at v_i, at v_j and above v_j factorizes into
//   P(i, j) = C(n, k) (F_i^k - F_{i-1}^k) (S_{j-1}^(n-k) - S_j^(n-k)),   i < j.
// The S factors telescope over j: sum_{j > i} P(i, j) = C(n, k) (F_i^k - F_{i-1}^k) S_i^(n-k), and
// the diagonal (both middle values at v_i) is what remains of X*_(k)'s marginal:
//   P(i, i) = P(X*_(k) = v_i) - C(n, k) (F_i^k - F_{i-1}^k) S_i^(n-k).
// All is taken in logs (C(1000, 500) alone is 1e299). X*_(k) has a standard deviation of about
// sqrt(n) / 2 ranks, so only ~9 of those on either side of the middle carry mass above kNegligible;
// and in a row i, P(i, j) falls by about e^-1 per rank of j, so a row holds a few dozen pairs. That is
// O(sqrt(n)) rows of O(1) pairs, and the cost is the data's sort.

// Atoms below this are dropped; so is a row's tail once what remains of it (it telescopes) is below.
constexpr double kNegligible = 1e-17;

// Sorts atoms made of increasing runs (run r is [starts[r], starts[r + 1]), the last one to the end)
// by merging neighbouring runs (faster than std::sort, which ignores them); then adds up equal values
// and drops empty atoms.
std::vector<BootstrapAtom> merge_atoms(std::vector<BootstrapAtom> atoms, std::vector<std::size_t> starts) {
  const auto by_value = [](const BootstrapAtom& a, const BootstrapAtom& b) { return a.value < b.value; };
  std::vector<BootstrapAtom> buffer(atoms.size());
  starts.push_back(atoms.size());
  while (starts.size() > 2) {
    std::vector<std::size_t> merged_starts;
    std::size_t r = 0;
    for (; r + 2 < starts.size(); r += 2) {
      merged_starts.push_back(starts[r]);
      std::merge(atoms.begin() + static_cast<std::ptrdiff_t>(starts[r]),
                 atoms.begin() + static_cast<std::ptrdiff_t>(starts[r + 1]),
                 atoms.begin() + static_cast<std::ptrdiff_t>(starts[r + 1]),
                 atoms.begin() + static_cast<std::ptrdiff_t>(starts[r + 2]),
                 buffer.begin() + static_cast<std::ptrdiff_t>(starts[r]), by_value);
    }
    if (r + 1 < starts.size()) {  // an odd run out: copied as it is
      merged_starts.push_back(starts[r]);
      std::copy(atoms.begin() + static_cast<std::ptrdiff_t>(starts[r]), atoms.end(),
                buffer.begin() + static_cast<std::ptrdiff_t>(starts[r]));
    }
    merged_starts.push_back(atoms.size());
    atoms.swap(buffer);
    starts.swap(merged_starts);
  }
  std::size_t kept = 0;
  for (const BootstrapAtom& atom : atoms) {
    if (!(atom.probability > 0.0)) continue;
    if (kept > 0 && atoms[kept - 1].value == atom.value) {
      atoms[kept - 1].probability += atom.probability;
    } else {
      atoms[kept++] = atom;
    }
  }
  atoms.resize(kept);
  return atoms;
}

// Gauss-Legendre, 8 points on [-1, 1]: the beta density below over one rank step (1/n), to about
// 1e-15 of the step's mass for small n and 1e-11 at n = 1e5, where k log p's own rounding dominates.
constexpr double kLegendreNodes[] = {-0.9602898564975362, -0.7966664774136267, -0.525532409916329, -0.18343464249564978,
                                     0.18343464249564978, 0.525532409916329,   0.7966664774136267, 0.9602898564975362};
constexpr double kLegendreWeights[] = {0.10122853629037669, 0.22238103445337434, 0.31370664587788705,
                                       0.36268378337836177, 0.36268378337836177, 0.31370664587788705,
                                       0.22238103445337434, 0.10122853629037669};

}  // namespace

std::vector<BootstrapAtom> exact_median_of_sorted(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  if (n == 0) return {};
  std::vector<double> values;           // the distinct values v
  std::vector<std::size_t> through{0};  // through[j + 1] = #{x <= values[j]}
  for (std::size_t i = 0; i < n; ++i) {
    if (values.empty() || sorted[i] != values.back()) {
      values.push_back(sorted[i]);
      through.push_back(i + 1);
    } else {
      through.back() = i + 1;
    }
  }
  const std::size_t m = values.size();
  const auto size = static_cast<double>(n);
  const std::size_t k = (n + 1) / 2;  // X*_(k): the median (odd n) or the lower middle value (even n)
  const auto kd = static_cast<double>(k);
  const auto fraction = [&](std::size_t count) { return static_cast<double>(count) / size; };

  // The window of values that carry mass: from the value holding rank k, outwards in steps of about
  // one standard deviation of X*_(k)'s rank (sqrt(n) / 2) until the tail beyond is below kNegligible.
  // A tail is I_F(k, n - k + 1) or its complement (boost's ibeta; a few calls).
  std::size_t centre = 0;
  while (through[centre + 1] < k) ++centre;
  const auto step = static_cast<std::size_t>(std::ceil(std::sqrt(size) / 2.0)) + 1;
  std::size_t low = centre;  // lowest value kept: P(X*_(k) < values[low]) < kNegligible
  while (low > 0 && boost::math::ibeta(kd, size - kd + 1.0, fraction(through[low])) >= kNegligible) {
    low = static_cast<std::size_t>(
              std::upper_bound(through.begin(), through.end(), through[low] > step ? through[low] - step : 0) -
              through.begin()) -
          1;
  }
  std::size_t high = centre;  // highest value kept: P(X*_(k) > values[high]) < kNegligible
  while (high + 1 < m && boost::math::ibetac(kd, size - kd + 1.0, fraction(through[high + 1])) >= kNegligible) {
    high =
        std::min(m, static_cast<std::size_t>(
                        std::lower_bound(through.begin(), through.end(), through[high + 1] + step) - through.begin())) -
        1;
  }

  // X*_(k)'s marginal on [low, high]: P(F_{j-1} < U <= F_j), U ~ Beta(k, n - k + 1) (the k-th of n
  // uniforms), by quadrature of its density one rank step at a time: thousands of ibeta calls would
  // cost more than all the rest.
  const double log_density_scale =
      std::log(size) + boost::math::lgamma(size) - boost::math::lgamma(kd) - boost::math::lgamma(size - kd + 1.0);
  const auto rank_step_mass = [&](std::size_t rank) {  // P(rank / n < U <= (rank + 1) / n)
    const double half = 0.5 / size;
    const double centre_p = (static_cast<double>(rank) + 0.5) / size;
    double sum = 0.0;
    for (std::size_t g = 0; g < std::size(kLegendreNodes); ++g) {
      const double p = centre_p + half * kLegendreNodes[g];
      sum +=
          kLegendreWeights[g] * std::exp(log_density_scale + (kd - 1.0) * std::log(p) + (size - kd) * std::log1p(-p));
    }
    return half * sum;
  };
  std::vector<double> marginal(high - low + 1, 0.0);
  for (std::size_t j = low; j <= high; ++j) {
    for (std::size_t rank = through[j]; rank < through[j + 1]; ++rank) marginal[j - low] += rank_step_mass(rank);
  }

  std::vector<BootstrapAtom> atoms;
  // About 40 pairs per value in the window for even n (see above); growing the vector costs more.
  atoms.reserve((high - low + 1) * (n % 2 == 1 ? 1 : 48));
  if (n % 2 == 1) {
    for (std::size_t j = low; j <= high; ++j) atoms.push_back({values[j], marginal[j - low]});
    return merge_atoms(std::move(atoms), {0});
  }
  // Even n: k = n - k = n / 2. boost's lgamma, unlike std::lgamma, sets no global (signgam).
  const double log_choose = boost::math::lgamma(size + 1.0) - 2.0 * boost::math::lgamma(kd + 1.0);
  const double log_negligible = std::log(kNegligible);
  // Per value j >= low, computed once: (n - k) log S_j, and log(S_{j-1}^(n-k) - S_j^(n-k)).
  std::vector<double> log_survival(m - low);
  std::vector<double> log_step(m - low);
  for (std::size_t j = low; j < m; ++j) {
    const auto above = static_cast<double>(n - through[j + 1]);
    const auto above_previous = static_cast<double>(n - through[j]);
    log_survival[j - low] = kd * std::log(above / size);
    // (n - k) log S_{j-1} + log(1 - (S_j / S_{j-1})^(n-k)).
    log_step[j - low] = kd * std::log(above_previous / size) +
                        (above == 0.0 ? 0.0 : std::log(-std::expm1(kd * std::log(above / above_previous))));
  }
  std::vector<std::size_t> runs;
  for (std::size_t i = low; i <= high; ++i) {
    // log(F_i^k - F_{i-1}^k) = k log F_i + log(1 - (F_{i-1} / F_i)^k).
    const double ratio = static_cast<double>(through[i]) / static_cast<double>(through[i + 1]);
    const double log_row = log_choose + kd * std::log(fraction(through[i + 1])) +
                           (through[i] == 0 ? 0.0 : std::log(-std::expm1(kd * std::log(ratio))));
    const double off_diagonal = i + 1 == m ? 0.0 : std::exp(log_row + log_survival[i - low]);
    runs.push_back(atoms.size());  // a row's values increase with j
    atoms.push_back({values[i], std::max(0.0, marginal[i - low] - off_diagonal)});
    // Stop once what remains of the row, C(n, k) (F_i^k - F_{i-1}^k) S_{j-1}^(n-k), is negligible.
    for (std::size_t j = i + 1; j < m && log_row + log_survival[j - 1 - low] >= log_negligible; ++j) {
      atoms.push_back({midpoint(values[i], values[j]), std::exp(log_row + log_step[j - low])});
    }
  }
  return merge_atoms(std::move(atoms), std::move(runs));
}

}  // namespace bootstrap_detail

std::vector<BootstrapAtom> exact_median_distribution(const std::vector<double>& samples) {
  if (!all_finite(samples)) return {};
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return bootstrap_detail::exact_median_of_sorted(sorted);
}

MedianLawSampler::MedianLawSampler(const std::vector<double>& samples) {
  double sum = 0.0;
  for (const BootstrapAtom& atom : exact_median_distribution(samples)) {
    sum += atom.probability;
    values_.push_back(atom.value);
    cumulative_.push_back(sum);
  }
}

double MedianLawSampler::draw(std::mt19937_64& engine) const {
  // The atoms' total falls short of 1 by at most ~1e-14; scaling u by it keeps every draw on an atom.
  const double u = static_cast<double>(engine() >> 11) * 0x1.0p-53 * cumulative_.back();
  const auto at = std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin();
  return values_[std::min<std::size_t>(static_cast<std::size_t>(at), values_.size() - 1)];
}

}  // namespace gbx

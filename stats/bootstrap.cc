#include "stats/bootstrap.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <memory>
#include <random>
#include <thread>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>

namespace gbx {
namespace {

// Below this many drawn indices per thread, starting a thread costs more than it saves.
constexpr std::size_t kMinDrawsPerThread = std::size_t{1} << 17;

std::uint64_t splitmix64(std::uint64_t state) {
  std::uint64_t z = state + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t chunk_seed(std::uint64_t seed, std::size_t chunk) {
  return splitmix64(splitmix64(seed) ^ static_cast<std::uint64_t>(chunk));
}

// Uniform in [0, bound) from a 32-bit draw, unbiased (Lemire 2019). The rejection branch is taken with
// probability below bound / 2^32, so two indices come from each 64-bit engine output.
std::uint32_t bounded(std::uint32_t draw, std::uint32_t bound, std::mt19937_64& engine) {
  std::uint64_t product = std::uint64_t{draw} * bound;
  auto low = static_cast<std::uint32_t>(product);
  if (low < bound) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(0u - bound) % bound;
    while (low < threshold) {
      product = (engine() & 0xffffffffULL) * bound;
      low = static_cast<std::uint32_t>(product);
    }
  }
  return static_cast<std::uint32_t>(product >> 32);
}

// Calls visit(index) for n indices drawn uniformly from [0, n): one resample, with replacement.
template <typename Visit>
void draw_indices(std::size_t n, std::mt19937_64& engine, Visit visit) {
  const auto bound = static_cast<std::uint32_t>(n);
  std::size_t i = 0;
  for (; i + 1 < n; i += 2) {
    const std::uint64_t draw = engine();
    visit(bounded(static_cast<std::uint32_t>(draw), bound, engine));
    visit(bounded(static_cast<std::uint32_t>(draw >> 32), bound, engine));
  }
  if (i < n) visit(bounded(static_cast<std::uint32_t>(engine()), bound, engine));
}

// The midpoint as numpy's median computes it ((a + b) / 2), so that resampled medians equal to the
// estimate compare equal in z0's mid-rank count. Halving first cannot overflow and rounds the same.
double midpoint(double a, double b) { return 0.5 * a + 0.5 * b; }

double mean_of(const std::vector<double>& values) {
  double sum = 0.0;
  for (double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

// The statistic on one resample of `sorted`. For the median, indices stand for values: the data are
// sorted, so the k-th smallest drawn index is the k-th smallest drawn value, and a count per index
// (a counting sort, stopped at the middle) selects it in O(n). That is about 3 times faster than
// std::nth_element on the drawn indices, whose unpredictable branches cost more than the draws.
double resample_statistic(const std::vector<double>& sorted, BootstrapStatistic statistic,
                          std::vector<std::uint32_t>& counts, std::mt19937_64& engine) {
  const std::size_t n = sorted.size();
  if (statistic == BootstrapStatistic::mean) {
    double sum = 0.0;
    draw_indices(n, engine, [&](std::uint32_t index) { sum += sorted[index]; });
    return sum / static_cast<double>(n);
  }
  std::fill(counts.begin(), counts.end(), 0u);
  draw_indices(n, engine, [&](std::uint32_t index) { ++counts[index]; });
  const std::size_t middle = (n - 1) / 2;  // 0-based rank of the (lower) middle value
  std::size_t index = 0;
  std::size_t through = counts[0];  // drawn values with index <= `index`
  while (through <= middle) through += counts[++index];
  const double lower = sorted[index];
  if (n % 2 == 1) return lower;
  // The upper middle (rank middle + 1) shares the index when it was drawn more than once past it.
  while (through <= middle + 1) through += counts[++index];
  return midpoint(lower, sorted[index]);
}

std::vector<double> distribution_of_sorted(const std::vector<double>& sorted, BootstrapStatistic statistic,
                                           std::size_t resamples, std::uint64_t seed, unsigned threads) {
  if (sorted.empty() || resamples == 0) return {};
  std::vector<double> distribution(resamples);
  const std::size_t chunks = (resamples + kBootstrapChunk - 1) / kBootstrapChunk;
  std::atomic<std::size_t> next_chunk{0};
  // Each chunk has its own seed and its own slots, so who runs it, and when, changes nothing.
  const auto work = [&] {
    std::vector<std::uint32_t> counts(statistic == BootstrapStatistic::median ? sorted.size() : 0);
    for (std::size_t chunk = next_chunk++; chunk < chunks; chunk = next_chunk++) {
      std::mt19937_64 engine(chunk_seed(seed, chunk));
      const std::size_t end = std::min(resamples, (chunk + 1) * kBootstrapChunk);
      for (std::size_t r = chunk * kBootstrapChunk; r < end; ++r) {
        distribution[r] = resample_statistic(sorted, statistic, counts, engine);
      }
    }
  };
  std::size_t thread_count = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  thread_count =
      std::min({thread_count, chunks, std::max<std::size_t>(1, sorted.size() * resamples / kMinDrawsPerThread)});
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < thread_count; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return distribution;
}

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
    const double mean = mean_of(sorted);
    std::vector<std::pair<double, double>> deviations;
    deviations.reserve(n);
    for (double value : sorted) deviations.emplace_back(mean - value, 1.0);
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

// ---- The mean's saddlepoint approximation -------------------------------------------------------
//
// Why not Monte Carlo: 10,000 resamples of 1,000 samples are 10^7 draws, about 35 ms, for every
// benchmark. Why not ABC (DiCiccio & Efron 1992), the other analytic route: it approximates the BCa
// interval to second order, while the saddlepoint approximates the bootstrap distribution itself, to
// which the very BCa recipe scipy follows (mid-rank z0, jackknife a, quantiles) then applies as is.
//
// In standard units y_i = (x_i - mean) / sd (sd with n), a resample's mean is mean + sd T / n, T the
// sum of n independent draws from {y_i}, with cumulant generating function
//   K(s) = n log((1/n) sum exp(s y_i)),   K'(s) = n E_s[y],   K''(s) = n Var_s[y]
// (E_s, Var_s under weights proportional to exp(s y_i)). At the saddlepoint s of t (K'(s) = t),
// Lugannani and Rice give
//   P(T <= t) ~ Phi(w) + phi(w) (1/w - 1/u),   w = sign(s) sqrt(2 (s t - K(s))),   u = s sqrt(K''(s)),
// whose limit at s = 0 (t = 0: the estimate itself) is 1/2 + lambda3 / (6 sqrt(2 pi)), lambda3 =
// K'''(0) / K''(0)^1.5 = mean(y^3) / sqrt(n). Its error is O(1/n) relative, in the tails too. From
// n = 100 it stays within 0.5% of the interval's width of 400,000-resample Monte Carlo (about 0.1 to
// 0.4%, mostly that run's own noise), against 1 to 2% at n = 30: hence kSaddlepointMinSamples. See
// bootstrap_saddlepoint_gtest.cc and bca_reference_gtest.cc (scipy, n = 200 and 2,000).
//
// It approximates a smooth distribution, and the resampled mean's is a set of atoms. That does not
// matter when they are dense, but it does in two cases, which saddlepoint_check_sorted refuses:
//   - a lattice: data on a grid of step h put T on the same grid, and the smooth quantile can sit h/2
//     from scipy's atom;
//   - lumps: a value far from the rest, drawn 0, 1, 2, ... times (about Poisson(1)), puts lumps in T
//     that far apart, each as wide as the spread the other draws add. A mixture of normals r standard
//     deviations apart has a periodic ripple of relative amplitude 2 exp(-2 pi^2 / r^2) (Poisson
//     summation): 1.6e-4 at r = 1.5, 7e-3 at r = 2, 0.08 at r = 3.
// Both are gaps between clusters of values that the spread within the clusters does not fill. So
// (lumpiness_of_sorted) for each gap g between neighbouring values wider than kGrainOfT sd(T), the
// data are cut at every gap >= g, and sqrt(W), W the sum of squares within the clusters (the spread
// T gets from draws moving within them), must be at least g / kSaddlepointLumpRatio. A lattice
// coarser than the grain has W = 0 at its step. With 1.5 the saddlepoint is still good to 0.4% of the
// width at ratios up to 2.2 in the tests (one or three far values, n = 100 to 1,000), and 1 to 4% off
// from 3 on. What fails falls back to Monte Carlo, at its full cost: a benchmark with a sample 20
// times its median among 1,000 (a preempted run) does.

// A step of T below this many standard deviations of T moves a quantile by at most half of it: 0.25%
// of a 95% interval's width, a third of the Monte-Carlo error of 10,000 resamples.
constexpr double kGrainOfT = 0.02;

class MeanSaddlepoint {
 public:
  // `sorted`: sorted, finite, not constant.
  explicit MeanSaddlepoint(const std::vector<double>& sorted)
      : n_(static_cast<double>(sorted.size())), mean_(mean_of(sorted)) {
    double squares = 0.0;
    for (double x : sorted) squares += (x - mean_) * (x - mean_);
    sd_ = std::sqrt(squares / n_);
    y_.reserve(sorted.size());
    for (double x : sorted) y_.push_back((x - mean_) / sd_);
    reach_ = std::max(-y_.front(), y_.back());
    small_s_ = kSmallW / std::sqrt(n_);
    const Cumulants below = cumulants(-small_s_);
    const Cumulants above = cumulants(small_s_);
    correction_below_ = 1.0 / below.w - 1.0 / (-small_s_ * std::sqrt(below.second));
    correction_above_ = 1.0 / above.w - 1.0 / (small_s_ * std::sqrt(above.second));
  }

  double mean() const { return mean_; }

  // P(T <= 0): the estimate's (smooth) mid-rank.
  double at_estimate() const { return probability(0.0, cumulants(0.0)); }

  // P(resampled mean <= x).
  double cdf(double x) const {
    const double t = n_ * (x - mean_) / sd_;
    if (!(t > n_ * y_.front())) return 0.0;
    if (!(t < n_ * y_.back())) return 1.0;
    // Newton on K'(s) = t (K' increases), kept inside a bracket, to 1e-12 standard deviations of T.
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();
    double s = t / n_;
    Cumulants c = cumulants(s);
    for (int iteration = 0; iteration < 200 && std::abs(c.first - t) > 1e-12 * std::sqrt(n_); ++iteration) {
      (c.first < t ? low : high) = s;
      double next = s - (c.first - t) / c.second;
      if (!(next > low && next < high)) next = between(low, high, s);
      if (next == s) break;
      s = next;
      c = cumulants(s);
    }
    return probability(s, c);
  }

  // The x with cdf(x) = p: a bracket of the saddlepoint s, found by steps from the normal
  // approximation that double (strong skewness can put the root many steps away, where Newton's
  // first step from the flat tail would overshoot wildly), then Newton inside it, bisecting where a
  // step would leave it, with dP/ds ~ phi(w) s K''(s) / w (the leading term's derivative: w dw/ds =
  // s K''(s)). To 1e-13 in probability: 4 to 8 evaluations of n exponentials.
  double quantile(double p) const {
    const boost::math::normal_distribution<double> normal;
    double s = boost::math::quantile(normal, p) / std::sqrt(n_);
    Cumulants c = cumulants(s);
    double value = probability(s, c);
    double low = s;
    double high = s;
    for (double step = 0.5 / std::sqrt(n_); value < p; step *= 2.0) {
      low = s;
      s = high = s + step;
      c = cumulants(s);
      value = probability(s, c);
    }
    for (double step = 0.5 / std::sqrt(n_); value > p; step *= 2.0) {
      high = s;
      s = low = s - step;
      c = cumulants(s);
      value = probability(s, c);
    }
    // Now p is between the values at low and high (one of which is s).
    for (int iteration = 0; iteration < 100 && std::abs(value - p) > 1e-13; ++iteration) {
      (value < p ? low : high) = s;
      const double slope = std::abs(s) < small_s_ ? boost::math::pdf(normal, c.w) * std::sqrt(c.second)
                                                  : boost::math::pdf(normal, c.w) * s * c.second / c.w;
      double next = s - (value - p) / slope;
      if (!(next > low && next < high)) next = 0.5 * (low + high);
      if (next == s) break;
      s = next;
      c = cumulants(s);
      value = probability(s, c);
    }
    return mean_ + sd_ * c.first / n_;
  }

 private:
  static constexpr double kPi = 3.14159265358979323846;
  // Where |w| is below this, 1/w - 1/u has lost too many digits to cancellation (both are ~1/w), and
  // it is interpolated linearly between its values at w = -/+kSmallW instead: it is smooth in s,
  // with the limit lambda3 / 6 at s = 0, so the interpolation is off by O(kSmallW^2).
  static constexpr double kSmallW = 1e-3;

  struct Cumulants {
    double first;   // K'(s)
    double second;  // K''(s)
    double w;       // sign(s) sqrt(2 (s K'(s) - K(s)))
  };

  // Bisection when bracketed, else a step outwards.
  static double between(double low, double high, double s) {
    if (std::isfinite(low) && std::isfinite(high)) return 0.5 * (low + high);
    const double step = std::max(0.1, std::abs(s));
    return std::isfinite(low) ? low + step : high - step;
  }

  // K', K'' and w at s. With E = mean(exp(s y)) - 1: K = n log1p(E), K' = n E_s[y], K'' = n Var_s[y].
  // Where |s y| <= 1 for every y, E comes from expm1 and sum(y) = 0 is used exactly (K ~ n s^2 / 2,
  // and log(1 + E) alone would lose it to rounding); beyond, the largest exponent is taken out so
  // that nothing overflows, and K is large enough not to need that care.
  Cumulants cumulants(double s) const {
    double s0 = 0.0;  // sum of exp(s y - shift) (or of expm1(s y))
    double s1 = 0.0;  // sum of y times the same
    double s2 = 0.0;  // sum of y^2 exp(s y - shift)
    if (std::abs(s) * reach_ <= 1.0) {
      for (double y : y_) {
        const double e = std::expm1(s * y);
        s0 += e;
        s1 += y * e;  // sum(y) = 0: the 1 in exp = 1 + expm1 adds nothing
        s2 += y * y * (1.0 + e);
      }
      const double total = n_ + s0;
      const double m1 = s1 / total;
      const double excess = n_ * (s * m1 - std::log1p(s0 / n_));  // s K' - K
      return {n_ * m1, n_ * std::max(0.0, s2 / total - m1 * m1), signed_root(s, excess)};
    }
    const double shift = s >= 0.0 ? s * y_.back() : s * y_.front();
    for (double y : y_) {
      const double e = std::exp(s * y - shift);
      s0 += e;
      s1 += e * y;
      s2 += e * y * y;
    }
    const double m1 = s1 / s0;
    const double excess = n_ * (s * m1 - shift - std::log(s0 / n_));
    return {n_ * m1, n_ * std::max(0.0, s2 / s0 - m1 * m1), signed_root(s, excess)};
  }

  static double signed_root(double s, double excess) {
    const double r = std::sqrt(std::max(0.0, 2.0 * excess));
    return s < 0.0 ? -r : r;
  }

  // Lugannani-Rice at the saddlepoint s.
  double probability(double s, const Cumulants& c) const {
    // So far out that all the weight sits on the extreme value: the tail is empty.
    if (!(c.second > 0.0)) return s < 0.0 ? 0.0 : 1.0;
    const boost::math::normal_distribution<double> normal;
    const double correction = std::abs(s) < small_s_ ? correction_below_ + (correction_above_ - correction_below_) *
                                                                               (s + small_s_) / (2.0 * small_s_)
                                                     : 1.0 / c.w - 1.0 / (s * std::sqrt(c.second));
    return std::clamp(boost::math::cdf(normal, c.w) + boost::math::pdf(normal, c.w) * correction, 0.0, 1.0);
  }

  double n_;
  double mean_;
  double sd_ = 0.0;
  std::vector<double> y_;
  double reach_ = 0.0;    // max |y|
  double small_s_ = 0.0;  // |s| giving |w| ~ kSmallW (K''(0) = n)
  double correction_below_ = 0.0;
  double correction_above_ = 0.0;
};

// The largest ratio g / sqrt(W(g)) over the gaps g between consecutive distinct values that exceed
// kGrainOfT sd(T): W(g) is the within-cluster sum of squares once the data are cut at every gap >= g.
// Infinite when some such gap has nothing within to smooth it (a lattice coarser than the grain).
double lumpiness_of_sorted(const std::vector<double>& sorted) {
  struct Cluster {
    double count = 0.0;
    double mean = 0.0;
    double within = 0.0;  // sum of squares about `mean`
  };
  // Chan et al.'s pairwise update: stable, where sum x^2 - (sum x)^2 / n is not.
  const auto join = [](const Cluster& a, const Cluster& b) {
    const double count = a.count + b.count;
    const double delta = b.mean - a.mean;
    return Cluster{count, a.mean + delta * b.count / count,
                   a.within + b.within + delta * delta * a.count * b.count / count};
  };
  Cluster all;
  for (double x : sorted) all = join(all, Cluster{1.0, x, 0.0});
  const double grain = kGrainOfT * std::sqrt(all.within);  // kGrainOfT sd(T), in the data's units
  // Runs of values closer than the grain are clusters from the start; the wider gaps between them
  // are then opened in increasing order.
  std::vector<Cluster> clusters{Cluster{1.0, sorted.front(), 0.0}};
  std::vector<std::pair<double, std::size_t>> gaps;  // (gap, cluster to its left)
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const double gap = sorted[i] - sorted[i - 1];
    if (gap > grain) {
      gaps.emplace_back(gap, clusters.size() - 1);
      clusters.push_back(Cluster{1.0, sorted[i], 0.0});
    } else {
      clusters.back() = join(clusters.back(), Cluster{1.0, sorted[i], 0.0});
    }
  }
  double within = 0.0;
  for (const Cluster& cluster : clusters) within += cluster.within;
  std::sort(gaps.begin(), gaps.end());
  // Union-find on cluster indices, the leftmost cluster of a merged run holding its statistics.
  std::vector<std::size_t> leftmost(clusters.size());
  for (std::size_t c = 0; c < clusters.size(); ++c) leftmost[c] = c;
  const auto find = [&](std::size_t c) {
    while (leftmost[c] != c) c = leftmost[c] = leftmost[leftmost[c]];
    return c;
  };
  double worst = 0.0;
  for (const auto& [gap, left] : gaps) {
    if (!(within > 0.0)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, gap / std::sqrt(within));
    const std::size_t a = find(left);
    const std::size_t b = left + 1;  // not yet merged leftwards: its own leftmost
    const double delta = clusters[b].mean - clusters[a].mean;
    within += delta * delta * clusters[a].count * clusters[b].count / (clusters[a].count + clusters[b].count);
    clusters[a] = join(clusters[a], clusters[b]);
    leftmost[b] = a;
  }
  return worst;
}

std::optional<std::string> saddlepoint_check_sorted(const std::vector<double>& sorted) {
  if (sorted.size() < kSaddlepointMinSamples) {
    return "fewer than " + std::to_string(kSaddlepointMinSamples) + " samples";
  }
  if (sorted.front() == sorted.back()) return "all samples equal";
  const double lumpiness = lumpiness_of_sorted(sorted);
  if (lumpiness > kSaddlepointLumpRatio) {
    char text[160];
    std::snprintf(text, sizeof text, "lumpy bootstrap distribution: a gap %.3g times the spread within (over %.3g)",
                  lumpiness, kSaddlepointLumpRatio);
    return std::string(text);
  }
  return std::nullopt;
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
  MeanSaddlepoint saddlepoint_;
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

std::vector<double> bootstrap_distribution(const std::vector<double>& samples, BootstrapStatistic statistic,
                                           std::size_t resamples, std::uint64_t seed, unsigned threads) {
  if (samples.size() > std::numeric_limits<std::uint32_t>::max()) return {};
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return distribution_of_sorted(sorted, statistic, resamples, seed, threads);
}

std::vector<BootstrapAtom> exact_median_distribution(const std::vector<double>& samples) {
  if (!all_finite(samples)) return {};
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return exact_median_of_sorted(sorted);
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

std::optional<std::string> saddlepoint_mean_check(const std::vector<double>& samples) {
  if (samples.empty()) return "no samples";
  if (!all_finite(samples)) return "a sample is not finite";
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  return saddlepoint_check_sorted(sorted);
}

namespace {

std::optional<MeanSaddlepoint> saddlepoint_of(const std::vector<double>& samples) {
  if (samples.empty() || !all_finite(samples)) return std::nullopt;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.front() == sorted.back()) return std::nullopt;
  return MeanSaddlepoint(sorted);
}

}  // namespace

std::optional<double> saddlepoint_mean_lumpiness(const std::vector<double>& samples) {
  if (samples.empty() || !all_finite(samples)) return std::nullopt;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.front() == sorted.back()) return std::nullopt;
  return lumpiness_of_sorted(sorted);
}

std::optional<double> saddlepoint_mean_cdf(const std::vector<double>& samples, double x) {
  const std::optional<MeanSaddlepoint> saddlepoint = saddlepoint_of(samples);
  if (!saddlepoint || std::isnan(x)) return std::nullopt;
  return saddlepoint->cdf(x);
}

std::optional<double> saddlepoint_mean_quantile(const std::vector<double>& samples, double p) {
  const std::optional<MeanSaddlepoint> saddlepoint = saddlepoint_of(samples);
  if (!saddlepoint || !(p > 0.0 && p < 1.0)) return std::nullopt;
  return saddlepoint->quantile(p);
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
  result.estimate = statistic == BootstrapStatistic::mean ? mean_of(sorted) : median_of_sorted(sorted);
  const double alpha = 1.0 - options.level;
  result.lower_percentile = alpha / 2.0;
  result.upper_percentile = 1.0 - alpha / 2.0;

  const auto point = [&](double value, const char* why) {
    result.interval = Interval{value, value, options.level,
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
    distribution = std::make_unique<AtomicDistribution>(exact_median_of_sorted(sorted));
  } else if (options.analytic && !saddlepoint_check_sorted(sorted)) {
    result.distribution = BootstrapDistribution::saddlepoint;
    distribution = std::make_unique<SaddlepointDistribution>(sorted);
  } else {
    result.distribution = BootstrapDistribution::monte_carlo;
    result.seed = options.seed;
    result.resamples = options.resamples;
    distribution = std::make_unique<SampledDistribution>(
        distribution_of_sorted(sorted, statistic, options.resamples, options.seed, options.threads));
  }
  if (const std::optional<double> value = distribution->only_value()) {
    return point(*value, "the bootstrap distribution has no spread");
  }

  const auto percentile_interval = [&](const std::string& why) {
    result.method = BootstrapMethod::percentile;
    result.lower_percentile = alpha / 2.0;
    result.upper_percentile = 1.0 - alpha / 2.0;
    result.interval = Interval{distribution->quantile(result.lower_percentile),
                               distribution->quantile(result.upper_percentile), options.level,
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
  result.interval = Interval{distribution->quantile(lower), distribution->quantile(upper), options.level,
                             describe(statistic, BootstrapMethod::bca, result.distribution, result.resamples)};
  if (!note.empty()) {
    result.degenerate = true;
    result.reason = note;
  }
  return result;
}

}  // namespace gbx

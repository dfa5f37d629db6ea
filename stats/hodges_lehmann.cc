#include "stats/hodges_lehmann.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

namespace gbx {
namespace {

// Below this many candidate entries the rest is gathered and selected directly: one more staircase
// pass costs about as much as copying n1 + n2 values.
std::size_t gather_threshold(std::size_t rows, std::size_t columns) { return rows + columns + 64; }

bool finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

// The matrix D(j, i) = rows[j] - columns[i], rows increasing and columns decreasing, so D is
// non-decreasing along both.
class DifferenceMatrix {
 public:
  DifferenceMatrix(const std::vector<double>& base, const std::vector<double>& cand) : rows_(cand), columns_(base) {
    std::sort(rows_.begin(), rows_.end());
    std::sort(columns_.begin(), columns_.end(), [](double a, double b) { return a > b; });
  }
  std::size_t rows() const { return rows_.size(); }
  std::size_t columns() const { return columns_.size(); }
  double at(std::size_t j, std::size_t i) const { return rows_[j] - columns_[i]; }

  // Per row, how many entries are < pivot (strict) or <= pivot; both are non-increasing in the row,
  // so one pointer sweeps the columns once from the right.
  void count_below(double pivot, bool inclusive, std::vector<std::size_t>& counts) const {
    std::size_t boundary = columns();
    for (std::size_t j = 0; j < rows(); ++j) {
      while (boundary > 0 && !(inclusive ? at(j, boundary - 1) <= pivot : at(j, boundary - 1) < pivot)) --boundary;
      counts[j] = boundary;
    }
  }

 private:
  std::vector<double> rows_;
  std::vector<double> columns_;
};

}  // namespace

double kth_pairwise_difference(const std::vector<double>& base, const std::vector<double>& cand, std::size_t k) {
  const DifferenceMatrix matrix(base, cand);
  const std::size_t n_rows = matrix.rows();
  // Per row, entries [low[j], high[j]) may still hold rank k; everything left of low is smaller than
  // the answer and everything right of high larger.
  std::vector<std::size_t> low(n_rows, 0);
  std::vector<std::size_t> high(n_rows, matrix.columns());
  std::vector<std::size_t> less(n_rows);
  std::vector<std::size_t> at_most(n_rows);
  std::mt19937_64 engine(0x4c6568);  // fixed: the pivots change the cost, never the result

  for (;;) {
    std::size_t active = 0;
    std::size_t below = 0;
    for (std::size_t j = 0; j < n_rows; ++j) {
      active += high[j] - low[j];
      below += low[j];
    }
    if (active <= gather_threshold(n_rows, matrix.columns())) {
      std::vector<double> rest;
      rest.reserve(active);
      for (std::size_t j = 0; j < n_rows; ++j) {
        for (std::size_t i = low[j]; i < high[j]; ++i) rest.push_back(matrix.at(j, i));
      }
      const auto nth = rest.begin() + static_cast<std::ptrdiff_t>(k - below);
      std::nth_element(rest.begin(), nth, rest.end());
      return *nth;
    }
    // A uniformly chosen remaining entry as the pivot.
    std::size_t pick = std::uniform_int_distribution<std::size_t>(0, active - 1)(engine);
    std::size_t row = 0;
    while (pick >= high[row] - low[row]) {
      pick -= high[row] - low[row];
      ++row;
    }
    const double pivot = matrix.at(row, low[row] + pick);

    matrix.count_below(pivot, false, less);
    matrix.count_below(pivot, true, at_most);
    std::size_t count_less = 0;
    std::size_t count_at_most = 0;
    for (std::size_t j = 0; j < n_rows; ++j) {
      count_less += less[j];
      count_at_most += at_most[j];
    }
    if (k >= count_less && k < count_at_most) return pivot;
    for (std::size_t j = 0; j < n_rows; ++j) {
      if (k < count_less) {
        high[j] = std::max(low[j], std::min(high[j], less[j]));
      } else {
        low[j] = std::min(high[j], std::max(low[j], at_most[j]));
      }
    }
  }
}

double hodges_lehmann_shift(const std::vector<double>& base, const std::vector<double>& cand) {
  if (base.empty() || cand.empty() || !finite(base) || !finite(cand)) return 0.0;
  const std::size_t count = base.size() * cand.size();
  const double upper_middle = kth_pairwise_difference(base, cand, count / 2);
  if (count % 2 == 1) return upper_middle;
  return 0.5 * kth_pairwise_difference(base, cand, count / 2 - 1) + 0.5 * upper_middle;
}

}  // namespace gbx

#pragma once

#include <cstddef>
#include <vector>

// The two-sample Hodges-Lehmann shift without materialising the n1 n2 pairwise differences.
//
// With base sorted in decreasing and cand in increasing order, the differences cand_j - base_i form
// a matrix whose rows and columns are both non-decreasing. Any order statistic of such a matrix can be
// selected in O((n1 + n2) log(n1 n2)) expected time and O(n1 + n2) memory: keep, per row, the range
// of columns that may still hold it; pick a random pivot among those entries; count the entries below
// and at most the pivot with one staircase walk over the whole matrix (O(n1 + n2), since the boundary
// moves one way); and drop the side that cannot hold the wanted rank. Each pivot removes a constant
// fraction of the remaining entries on average (the idea of Monahan 1984 and of Johnson & Mizoguchi
// 1978, selection in X + Y). The pivot choice is seeded, so the cost is reproducible; the result does
// not depend on it.

namespace gbx {

// The k-th smallest (0-based) of the n1 n2 differences cand_j - base_i, ties counted with their
// multiplicity. Requires non-empty finite inputs and k < n1 n2.
double kth_pairwise_difference(const std::vector<double>& base, const std::vector<double>& cand, std::size_t k);

// Hodges-Lehmann shift: the type 7 median of all n1 n2 differences cand_j - base_i (for an even count,
// the mean of the two middle ones). 0 for empty or non-finite input.
double hodges_lehmann_shift(const std::vector<double>& base, const std::vector<double>& cand);

}  // namespace gbx

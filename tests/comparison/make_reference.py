#!/usr/bin/python3
# Reference p-values for mann_whitney_gtest.cc from scipy.stats.mannwhitneyu (Debian's python3-scipy:
# run with /usr/bin/python3). gbx's U counts pairs with cand > base, which is scipy's U1 for x = cand.
from scipy.stats import mannwhitneyu

CASES = {
    # Ties: the tie correction shrinks the variance.
    "ties": ([1, 2, 2, 3, 3, 3, 4, 5], [3, 4, 4, 5, 5, 6, 6, 7, 7]),
    # No ties, but past the exact threshold (both sides 21 > 20): the normal approximation.
    "large": ([i * 1.0 for i in range(0, 42, 2)], [i * 1.0 + 3.5 for i in range(0, 42, 2)]),
    # Exact at the threshold: 20 against 125 (n1 n2 = 2500), no ties.
    "threshold": ([7.0 * i + 0.5 for i in range(20)], [0.5 * i + 0.25 for i in range(125)]),
    # Exact: no ties, n1 = 6, n2 = 8.
    "exact": ([1.1, 2.3, 3.7, 4.2, 6.5, 8.8], [3.9, 5.1, 6.9, 7.4, 9.3, 9.9, 10.4, 12.0]),
}

for name, (base, cand) in CASES.items():
    method = "exact" if name in ("exact", "threshold") else "asymptotic"
    result = mannwhitneyu(cand, base, alternative="two-sided", method=method, use_continuity=True)
    print(f"{name}: U = {result.statistic!r}, p = {result.pvalue!r}")

#!/usr/bin/python3
"""Reference BCa intervals for bootstrap_gtest.cc, from scipy.stats.bootstrap.

Run with Debian's python3 (apt-get install python3-scipy; scipy 1.10):
    /usr/bin/python3 tests/stats/make_bca_reference.py            # the table in bootstrap_gtest.cc
    /usr/bin/python3 tests/stats/make_bca_reference.py --spread   # Monte-Carlo spread, for the tolerance
    /usr/bin/python3 tests/stats/make_bca_reference.py lognormal2000   # only the datasets named
The datasets are the ones bca_reference_gtest.cc builds (same literals, same formulas).
"""
import sys

import numpy as np
import scipy
from scipy import stats
from scipy.special import ndtri

REFERENCE_RESAMPLES = 100_000
REFERENCE_SEED = 20240601


def datasets():
    timings = [12.1, 11.8, 12.4, 13.0, 11.9, 12.2, 12.0, 14.8, 12.3, 11.7, 12.6, 12.1, 19.5,
               12.0, 12.5, 11.9, 13.3, 12.2, 12.8, 12.4, 11.6, 15.2, 12.0, 12.3, 12.7]
    # Quantiles of a lognormal(0, 0.75): a skewed sample with no Monte-Carlo in the data itself.
    lognormal = [float(np.exp(0.75 * ndtri((i + 0.5) / 200))) for i in range(200)]
    # Two modes: 36 quantiles of Normal(1, 0.02), 24 of Normal(1.5, 0.03).
    bimodal = ([1.0 + 0.02 * float(ndtri((i + 0.5) / 36)) for i in range(36)] +
               [1.5 + 0.03 * float(ndtri((i + 0.5) / 24)) for i in range(24)])
    # Timings quantized to 10 ns (ties): the median's jackknife has no spread, so mean only.
    quantized = [1000, 1000, 1010, 1000, 1020, 990, 1000, 1010, 1000, 1030, 1000, 990, 1010, 1000,
                 1200, 1000, 1010, 1020, 1000, 990, 1000, 1010, 1000, 1000, 1040, 1010, 1000, 990,
                 1000, 1010, 1500]
    # Large enough for the mean's saddlepoint path (n >= 100 and smooth) and for the median's exact
    # distribution to be far from small-n cases: 2,000 quantiles of the same lognormal.
    lognormal2000 = [float(np.exp(0.75 * ndtri((i + 0.5) / 2000))) for i in range(2000)]
    return [("timings", timings, ("median", "mean")),
            ("lognormal", lognormal, ("median", "mean")),
            ("bimodal", bimodal, ("median", "mean")),
            ("quantized", [float(v) for v in quantized], ("mean",)),
            ("lognormal2000", lognormal2000, ("median", "mean"))]


def bca(data, statistic, resamples, seed):
    function = np.median if statistic == "median" else np.mean
    # All resamples at once would be n x resamples doubles (1.6 GB for the 2,000-sample set), so large
    # sets go in batches. That changes which resamples a seed gives (numpy's bounded draws are buffered
    # per call) but not their law; the small sets keep the single batch their references came from.
    batch = 1000 if len(data) > 1000 else None
    result = stats.bootstrap((np.asarray(data),), function, method="BCa", n_resamples=resamples,
                             batch=batch, confidence_level=0.95, random_state=seed)
    return result.confidence_interval.low, result.confidence_interval.high


def main():
    print(f"// scipy {scipy.__version__}, numpy {np.__version__}")
    names = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    for name, data, statistics in datasets():
        if names and name not in names:
            continue
        for statistic in statistics:
            if "--spread" in sys.argv:
                bounds = np.array([bca(data, statistic, 10_000, seed) for seed in range(20)])
                low, high = bca(data, statistic, REFERENCE_RESAMPLES, REFERENCE_SEED)
                width = high - low
                print(f"{name} {statistic}: sd over 20 seeds at 10,000 resamples, as a fraction of the width: "
                      f"lower {bounds[:, 0].std(ddof=1) / width:.4f}, upper {bounds[:, 1].std(ddof=1) / width:.4f}; "
                      f"max |deviation| {np.abs(bounds - [low, high]).max() / width:.4f}")
            else:
                low, high = bca(data, statistic, REFERENCE_RESAMPLES, REFERENCE_SEED)
                print(f'    {{"{name}", BootstrapStatistic::{statistic}, {low!r}, {high!r}}},')


if __name__ == "__main__":
    main()

// Simulations of the process-level statistics (stats/hierarchical.h) and the compare rule, on data
// with known noise: a sample of process i is T exp(b_i + e_ij), b_i ~ N(0, between^2) the process's
// offset, e_ij ~ N(0, within^2) the noise inside it.
//
// 1. Coverage: how often the 95% interval of hierarchical_median holds the process-level median T,
//    for the t interval on log process medians and the two-level bootstrap, at several K; beside it
//    the single-process interval (one process's samples) for the same T.
// 2. Compare: runs of 50 benchmarks, K processes per side, decided as gbx compare does (BH across
//    the 50, then decide with the evidence). A/A: the share of rows, and of runs, called faster or
//    slower. Power: the share of rows called slower when the candidate is 10% slower (all 50 moved,
//    and one of 50 moved, the strictest case for BH). Beside them the single-process design on the
//    same data: process 0 of each side alone, decided by the interval rule alone (what gbx compare
//    said before processes existed).
//
// Usage: stats_hierarchical [runs=200] [coverage_trials=2000]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "stats/comparison.h"
#include "stats/hierarchical.h"

namespace {

using Groups = std::vector<std::vector<double>>;

struct Noise {
  std::size_t processes = 10;
  std::size_t samples = 30;
  double between = 0.03;
  double within = 0.01;
  double outlier_rate = 0.0;  // share of samples slowed by an exponential delay of mean 20%
};

Groups simulate(std::mt19937_64& engine, const Noise& noise, double scale) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::exponential_distribution<double> delay(5.0);
  Groups groups(noise.processes);
  for (auto& group : groups) {
    const double offset = noise.between * normal(engine);
    for (std::size_t j = 0; j < noise.samples; ++j) {
      double x = scale * std::exp(offset + noise.within * normal(engine));
      if (noise.outlier_rate > 0.0 && uniform(engine) < noise.outlier_rate) x *= 1.0 + delay(engine);
      group.push_back(x);
    }
  }
  return groups;
}

// The process-level median: T exp(median of b) = T, the median of one process's law being T exp(b_i)
// when there are no outliers; with outliers the median of a process's law is found numerically.
double process_level_median(const Noise& noise, double scale) {
  if (noise.outlier_rate == 0.0) return scale;
  // Median of the contaminated within law by a large draw: the b_i shift it multiplicatively.
  std::mt19937_64 engine(99);
  Noise one = noise;
  one.processes = 1;
  one.samples = 2000000;
  one.between = 0.0;
  std::vector<double> big = simulate(engine, one, scale)[0];
  std::nth_element(big.begin(), big.begin() + static_cast<std::ptrdiff_t>(big.size() / 2), big.end());
  return big[big.size() / 2];
}

void coverage(const Noise& noise, int trials) {
  std::mt19937_64 engine(1000 + noise.processes);
  const double truth = process_level_median(noise, 1.0);
  int covered_t = 0;
  int covered_boot = 0;
  int covered_single = 0;
  double width_t = 0.0;
  double width_boot = 0.0;
  gbx::HierarchicalOptions bootstrap;
  bootstrap.method = gbx::HierarchicalMethod::two_level_bootstrap;
  bootstrap.resamples = 2000;
  for (int trial = 0; trial < trials; ++trial) {
    const Groups groups = simulate(engine, noise, 1.0);
    const auto t = gbx::hierarchical_median(groups, 0.0);
    bootstrap.seed = static_cast<std::uint64_t>(trial);
    const auto boot = gbx::hierarchical_median(groups, 0.0, bootstrap);
    const auto single = gbx::hierarchical_median({groups[0]}, 0.0);
    covered_t += t->lower <= truth && truth <= t->upper;
    covered_boot += boot->lower <= truth && truth <= boot->upper;
    covered_single += single->lower <= truth && truth <= single->upper;
    width_t += (t->upper - t->lower) / 2.0 / t->median;
    width_boot += (boot->upper - boot->lower) / 2.0 / boot->median;
  }
  const double n = trials;
  std::printf(
      "K=%-3zu n=%-3zu between %.1f%% within %.1f%% outliers %3.0f%%:  log-t %5.1f%% (half-width %.2f%%)   "
      "two-level bootstrap %5.1f%% (%.2f%%)   one process alone %5.1f%%\n",
      noise.processes, noise.samples, 100 * noise.between, 100 * noise.within, 100 * noise.outlier_rate,
      100 * covered_t / n, 100 * width_t / n, 100 * covered_boot / n, 100 * width_boot / n, 100 * covered_single / n);
}

struct Tally {
  long rows = 0;
  long changed = 0;  // faster or slower
  long slower = 0;
  long runs = 0;
  long runs_changed = 0;  // runs with at least one faster or slower row
  long unreplicated = 0;
};

// One run of `benchmarks` rows; the first `moved` candidates are `shift` times slower. Tallies the
// process-level rule and the single-process design (process 0 of each side) on the same data.
void one_run(std::mt19937_64& engine, const Noise& noise, std::size_t benchmarks, std::size_t moved, double shift,
             Tally& hierarchical, Tally& single, Tally* hierarchical_moved, Tally* single_moved) {
  std::vector<gbx::HierarchicalRatio> process_level;
  std::vector<gbx::HierarchicalRatio> one_process;
  for (std::size_t b = 0; b < benchmarks; ++b) {
    const double scale = 1e-3 * (1.0 + static_cast<double>(b));
    const Groups base = simulate(engine, noise, scale);
    const Groups cand = simulate(engine, noise, scale * (b < moved ? shift : 1.0));
    process_level.push_back(*gbx::hierarchical_ratio(base, cand, 0.0, 0.0));
    one_process.push_back(*gbx::hierarchical_ratio({base[0]}, {cand[0]}, 0.0, 0.0, 0.95, b));
  }
  const auto tally = [&](const std::vector<gbx::HierarchicalRatio>& ratios, const gbx::ComparisonEvidence& evidence,
                         bool interval_rule_only, Tally& all, Tally* first) {
    std::vector<double> p;
    p.reserve(ratios.size());
    for (const auto& r : ratios) p.push_back(r.p_value);
    const std::vector<double> q = gbx::benjamini_hochberg(p);
    bool any = false;
    for (std::size_t b = 0; b < ratios.size(); ++b) {
      const gbx::Verdict v =
          interval_rule_only ? gbx::decide(q[b], ratios[b].interval) : gbx::decide(q[b], ratios[b].interval, evidence);
      const bool changed = v == gbx::Verdict::faster || v == gbx::Verdict::slower;
      Tally& t = (b < moved && first != nullptr) ? *first : all;
      ++t.rows;
      t.changed += changed;
      t.slower += v == gbx::Verdict::slower;
      t.unreplicated += v == gbx::Verdict::unreplicated;
      if (b >= moved || first == nullptr) any = any || changed;
    }
    ++all.runs;
    all.runs_changed += any;
  };
  const gbx::ComparisonEvidence both = {noise.processes * noise.samples, noise.processes * noise.samples,
                                        noise.processes, noise.processes};
  tally(process_level, both, false, hierarchical, hierarchical_moved);
  tally(one_process, {}, true, single, single_moved);
}

void print(const char* what, const Tally& t) {
  std::printf("  %-44s rows %6ld  faster/slower %6.2f%% (slower %6.2f%%)  runs with any %6.2f%%\n", what, t.rows,
              100.0 * static_cast<double>(t.changed) / static_cast<double>(t.rows),
              100.0 * static_cast<double>(t.slower) / static_cast<double>(t.rows),
              t.runs ? 100.0 * static_cast<double>(t.runs_changed) / static_cast<double>(t.runs) : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 200;
  const int trials = argc > 2 ? std::atoi(argv[2]) : 2000;

  std::printf("Coverage of the 95%% process-level median interval (%d trials each; goal 93-97%%)\n", trials);
  for (std::size_t k : {3, 5, 10, 20}) coverage(Noise{k, 30, 0.03, 0.01, 0.0}, trials);
  coverage(Noise{10, 30, 0.0, 0.01, 0.0}, trials);
  coverage(Noise{10, 30, 0.01, 0.03, 0.0}, trials);
  coverage(Noise{10, 30, 0.03, 0.01, 0.05}, trials);
  coverage(Noise{10, 5, 0.03, 0.01, 0.0}, trials);

  const Noise noise;  // K = 10, n = 30, between 3%, within 1%
  std::printf(
      "\nCompare, %d runs of 50 benchmarks, K = %zu processes x %zu samples per side, between %.0f%%, "
      "within %.0f%%, noise band 2%%, BH q = 0.05\n",
      runs, noise.processes, noise.samples, 100 * noise.between, 100 * noise.within);
  std::mt19937_64 engine(2026);
  Tally aa_h, aa_s;
  for (int r = 0; r < runs; ++r) one_run(engine, noise, 50, 0, 1.0, aa_h, aa_s, nullptr, nullptr);
  std::printf("A/A (no change):\n");
  print("process-level rule", aa_h);
  print("single-process design (process 0 per side)", aa_s);
  Tally all_h, all_s;
  for (int r = 0; r < runs; ++r) one_run(engine, noise, 50, 50, 1.10, all_h, all_s, nullptr, nullptr);
  std::printf("Power, every candidate 10%% slower (slower = found):\n");
  print("process-level rule", all_h);
  print("single-process design", all_s);
  Tally rest_h, rest_s, one_h, one_s;
  for (int r = 0; r < runs; ++r) one_run(engine, noise, 50, 1, 1.10, rest_h, rest_s, &one_h, &one_s);
  std::printf("Power, one candidate of 50 10%% slower (the moved row; the 49 others as A/A):\n");
  print("process-level rule, moved row", one_h);
  print("process-level rule, the 49 others", rest_h);
  print("single-process design, moved row", one_s);
  print("single-process design, the 49 others", rest_s);
  return 0;
}

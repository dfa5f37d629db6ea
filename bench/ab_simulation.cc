// The interleaved, paired, sequential design of `gbx ab` against today's whole-process alternation, on
// a simulated machine with issue 21's kind of noise (bench/ab_machine_model.h), and the error rates of
// the group-sequential rule itself on normal data. Prints the tables of docs/gating-statistics.md.
//
// Usage: ab_simulation [runs=200] [budget_seconds=120] [no-rules]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench/ab_machine_model.h"

namespace {

using namespace gbx;
using namespace gbx::ab_model;

struct Tally {
  std::size_t rows = 0, faster = 0, slower = 0, same = 0, inconclusive = 0, other = 0;
  double seconds = 0.0;
  std::size_t runs = 0;
  std::vector<double> mdes;      // of the inconclusive rows
  std::vector<double> all_mdes;  // of every row with one
  void add(const DesignOutcome& outcome, const std::vector<bool>& counted) {
    ++runs;
    seconds += outcome.seconds;
    for (std::size_t i = 0; i < outcome.verdicts.size(); ++i) {
      if (!counted[i]) continue;
      ++rows;
      switch (outcome.verdicts[i]) {
        case Verdict::faster:
          ++faster;
          break;
        case Verdict::slower:
          ++slower;
          break;
        case Verdict::same:
          ++same;
          break;
        case Verdict::inconclusive:
          ++inconclusive;
          break;
        default:
          ++other;
          break;
      }
      if (outcome.verdicts[i] == Verdict::inconclusive && outcome.mdes[i]) mdes.push_back(*outcome.mdes[i]);
      if (outcome.mdes[i]) all_mdes.push_back(*outcome.mdes[i]);
    }
  }
  double share(std::size_t count) const {
    return rows == 0 ? 0.0 : 100.0 * static_cast<double>(count) / static_cast<double>(rows);
  }
};

// "median [10th, 90th percentile] (rows)" of the MDEs.
std::string mde_text(std::vector<double> mdes) {
  if (mdes.empty()) return "-";
  std::sort(mdes.begin(), mdes.end());
  const auto at = [&](double q) {
    return 100.0 * mdes[static_cast<std::size_t>(q * static_cast<double>(mdes.size() - 1))];
  };
  char text[96];
  std::snprintf(text, sizeof text, "%.1f%% [%.1f%%, %.1f%%] (%zu)", at(0.5), at(0.1), at(0.9), mdes.size());
  return text;
}

void print_row(const char* scenario, const char* design, const char* rows_label, const Tally& tally) {
  std::printf("| %s | %s | %s | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.0f s | %s | %s |\n", scenario, design,
              rows_label, tally.share(tally.faster + tally.slower), tally.share(tally.slower), tally.share(tally.same),
              tally.share(tally.inconclusive), tally.share(tally.other),
              tally.seconds / static_cast<double>(tally.runs), mde_text(tally.all_mdes).c_str(),
              mde_text(tally.mdes).c_str());
}

// One scenario: each run draws one machine, and every design measures the same suite on it (each from
// the same seed of its own engine): the paired design with each test across pairs, and today's.
void scenario(const char* name, std::size_t runs, double budget, const std::vector<double>& changes,
              const MachineNoise& noise) {
  struct Design {
    const char* label;
    Tally changed, unchanged;
  };
  std::vector<Design> designs = {{"paired, signed rank", {}, {}},
                                 {"paired, weighted sign flip", {}, {}},
                                 {"paired, t", {}, {}},
                                 {"paired, signed rank, split fixed at the start", {}, {}},
                                 {"paired, weighted sign flip, futility", {}, {}},
                                 {"today (band 2%)", {}, {}},
                                 {"today (band 0.5%)", {}, {}}};
  std::vector<bool> changed(changes.size()), unchanged(changes.size());
  for (std::size_t i = 0; i < changes.size(); ++i) {
    changed[i] = changes[i] != 0.0;
    unchanged[i] = !changed[i];
  }
  for (std::size_t run = 0; run < runs; ++run) {
    std::vector<SimulatedBenchmark> suite = default_suite(0.0);
    for (std::size_t i = 0; i < suite.size(); ++i) suite[i].change = changes[i];
    Machine machine(noise, 1000 + run);
    std::vector<DesignOutcome> outcomes;
    struct Arm {
      PairTest test;
      bool replan;
      bool futility;
    };
    for (const Arm& arm :
         {Arm{PairTest::signed_rank, true, false}, Arm{PairTest::weighted, true, false}, Arm{PairTest::t, true, false},
          Arm{PairTest::signed_rank, false, false}, Arm{PairTest::weighted, true, true}}) {
      std::mt19937_64 engine(7 * run + 1);
      PairedDesign paired;
      paired.budget_seconds = budget;
      paired.sequential.options.test = arm.test;
      paired.replan = arm.replan;
      paired.futility = arm.futility;
      outcomes.push_back(run_paired(machine, engine, suite, paired));
    }
    std::mt19937_64 engine(7 * run + 1);
    for (DesignOutcome& today : run_today(machine, engine, suite, TodayDesign{}, {0.02, kPairedNoiseBand})) {
      outcomes.push_back(std::move(today));
    }
    for (std::size_t d = 0; d < designs.size(); ++d) {
      designs[d].changed.add(outcomes[d], changed);
      designs[d].unchanged.add(outcomes[d], unchanged);
    }
  }
  for (const Design& design : designs) {
    if (design.unchanged.rows > 0) print_row(name, design.label, "unchanged", design.unchanged);
    if (design.changed.rows > 0) print_row(name, design.label, "changed", design.changed);
  }
}

// The group-sequential rule alone, on one row (so Benjamini-Hochberg is the identity), each pair's log
// ratio N(log ratio, sd^2) with sd 1.4%, looks at 5, 10 and 20 pairs:
// - the difference test alone (no band, no margin) at ratio 1.00: its type I error, 5% two-sided at
//   one look;
// - the TOST alone (no change verdict) at ratio 1.02, the margin's edge: its type I error, 5%;
// - the whole rule (band 0.5%, margin 2%) at 1.00 (same) and 1.02 (slower): power and pairs used.
// Beside the spending rules, the naive one: the fixed-sample 95% and 90% intervals at every look.
struct SequentialCase {
  const char* name;
  double ratio;
  double noise_band;
  double margin;
  Verdict counted;
};

void sequential_rates(std::size_t runs) {
  const std::vector<SequentialCase> cases = {
      {"difference alone, 1.00: false faster/slower", 1.0, 0.0, 1e-9, Verdict::slower},
      {"TOST alone, 1.02: false same", 1.02, 0.99, kDefaultEquivalenceMargin, Verdict::same},
      {"whole rule, 1.00: same", 1.0, kPairedNoiseBand, kDefaultEquivalenceMargin, Verdict::same},
      {"whole rule, 1.02: slower", 1.02, kPairedNoiseBand, kDefaultEquivalenceMargin, Verdict::slower}};
  struct Rule {
    const char* name;
    std::vector<std::size_t> looks;
    SpendingFunction spending;
    bool naive;
  };
  const std::vector<Rule> rules = {
      {"one look at 20", {20}, SpendingFunction::obrien_fleming, false},
      {"naive: fixed intervals at 5/10/20", {5, 10, 20}, SpendingFunction::obrien_fleming, true},
      {"O'Brien-Fleming-type at 5/10/20", {5, 10, 20}, SpendingFunction::obrien_fleming, false},
      {"Pocock-type at 5/10/20", {5, 10, 20}, SpendingFunction::pocock, false}};
  std::printf("\n%zu runs a cell: the share of runs with the verdict, and the mean pairs used\n\n", runs);
  std::printf("| rule |");
  for (const SequentialCase& c : cases) std::printf(" %s |", c.name);
  std::printf("\n| --- |");
  for (std::size_t i = 0; i < cases.size(); ++i) std::printf(" --- |");
  std::printf("\n");
  for (const Rule& rule : rules) {
    std::printf("| %s |", rule.name);
    for (const SequentialCase& c : cases) {
      std::mt19937_64 engine(42);
      std::normal_distribution<double> noise(std::log(c.ratio), 0.014);
      double counted = 0, pairs_used = 0;
      SequentialDesign design;
      design.looks = rule.looks;
      design.spending = rule.spending;
      design.options.noise_band = c.noise_band;
      design.options.equivalence_margin = c.margin;
      for (std::size_t run = 0; run < runs; ++run) {
        std::vector<std::vector<WorkerPairBlocks>> pairs(1);
        std::vector<SequentialRow> state;
        PairedDecision naive;
        std::size_t used = 0;
        for (std::size_t k = 1; k <= rule.looks.back(); ++k) {
          const double x = std::exp(noise(engine));
          pairs[0].push_back(WorkerPairBlocks{{BlockPair{{1.0, 1.0, 1.0}, {x, x, x}, false, 0.0}}});
          if (std::find(rule.looks.begin(), rule.looks.end(), k) == rule.looks.end()) continue;
          used = k;
          if (rule.naive) {
            const auto analysis = analyze_pairs(pairs[0], design.options);
            naive = decide_paired(*analysis, analysis->p_t, design.options);
            if (naive.verdict != Verdict::inconclusive) break;
          } else {
            sequential_look(pairs, state, design, k == rule.looks.back());
            if (state[0].stopped) break;
          }
        }
        const Verdict v = rule.naive ? naive.verdict : state[0].decision.verdict;
        const bool change = v == Verdict::faster || v == Verdict::slower;
        if (c.counted == Verdict::slower ? change : v == c.counted) ++counted;
        pairs_used += static_cast<double>(used);
      }
      const double n = static_cast<double>(runs);
      std::printf(" %.2f%% (%.1f) |", 100.0 * counted / n, pairs_used / n);
    }
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t runs = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200;
  const double budget = argc > 2 ? std::strtod(argv[2], nullptr) : 120.0;
  if (runs == 0 || !(budget > 0.0)) {
    std::fprintf(stderr, "usage: ab_simulation [runs=200] [budget_seconds=120] [no-rules]\n");
    return 2;
  }
  std::printf("%zu runs of 12 benchmarks, paired budget %.0f s, today's design 6 + 6 processes\n\n", runs, budget);
  std::printf(
      "| scenario | design | rows | faster or slower | slower | same | inconclusive | other | mean wall time | "
      "MDE at the stop: median [p10, p90] (rows) | MDE of the inconclusive rows |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  MachineNoise harsh;  // twice the offsets and the drift, steps twice as often, 0.5% within a block
  harsh.process_sd = 0.02;
  harsh.drift_sd = 0.04;
  harsh.steps_per_second = 0.4;
  harsh.within_sd = 0.005;
  std::vector<double> mixed(12, 0.0);
  for (std::size_t i = 0; i < mixed.size(); i += 2) mixed[i] = 0.02;
  std::vector<double> one(12, 0.0);
  one[5] = 0.02;
  MachineNoise heavy;  // this machine's noise with a slow process now and then (5% of processes a row)
  heavy.slow_process_share = 0.05;
  MachineNoise blocks_off;  // this machine's noise with a block 20% off now and then (5% of blocks)
  blocks_off.block_outlier_share = 0.05;
  for (const auto& [label, noise] : {std::pair<const char*, MachineNoise>{"", MachineNoise{}},
                                     std::pair<const char*, MachineNoise>{"heavy tail: ", heavy},
                                     std::pair<const char*, MachineNoise>{"blocks off: ", blocks_off},
                                     std::pair<const char*, MachineNoise>{"harsh: ", harsh}}) {
    const std::string prefix = label;
    scenario((prefix + "A/A").c_str(), runs, budget, std::vector<double>(12, 0.0), noise);
    scenario((prefix + "all 2% slower").c_str(), runs, budget, std::vector<double>(12, 0.02), noise);
    scenario((prefix + "6 of 12 2% slower").c_str(), runs, budget, mixed, noise);
    scenario((prefix + "1 of 12 2% slower").c_str(), runs, budget, one, noise);
  }
  if (argc <= 3 || std::string(argv[3]) != "no-rules") sequential_rates(runs * 100);
  return 0;
}

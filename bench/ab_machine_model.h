#pragma once

// A simulated machine with the kind of noise issue 21 measured on a 2-core AMD EPYC VM, and
// the two ways `gbx ab` can measure on it: today's (whole processes alternating, a benchmark's base and
// candidate samples about 8 s apart, process medians compared by stats/hierarchical and
// stats/comparison) and the interleaved, paired, sequential design (stats/paired, stats/sequential).
// Shared by bench/ab_simulation.cc (the table in docs/gating-statistics.md) and the seeded simulation test
// (tests/comparison/paired_simulation_gtest.cc). Header-only, so that the test needs no bench library.
//
// A sample of a benchmark with true time T taken at time t by a process with offset o is
//   T exp(drift(t) + steps(t) + o + change + e),
// drift an AR(1) (Ornstein-Uhlenbeck) log speed, steps a ladder of clock bins that the machine moves
// along one rung at a time at random moments, o ~ N(0, process_sd) per process, e ~ N(0, within_sd)
// per sample, change log(1 + planted change) on the candidate side only.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "stats/comparison.h"
#include "stats/hierarchical.h"
#include "stats/paired.h"
#include "stats/sequential.h"

namespace gbx::ab_model {

struct MachineNoise {
  double drift_sd = 0.02;      // the AR(1)'s stationary sd: +/-4% at two sd
  double drift_seconds = 3.0;  // its correlation time: the speed wanders over seconds
  double step = 0.028;         // one rung of the clock-bin ladder (2242, 2305, 2366, 2437 ns: 2.8%)
  int rungs = 4;               // the ladder's length
  double steps_per_second = 0.2;
  double process_sd = 0.01;  // each process's own offset
  double within_sd = 0.002;  // one sample's noise about the machine's speed of the moment
  // The heavy tail seen in recorded gbx ab runs on 2-core VMs: now and then a process runs one
  // benchmark 30-100% slower for all its blocks (3 of 19 base processes of one triad row). Each
  // process and benchmark is such a slow one with this probability, its slowdown uniform in
  // [slow_least, slow_most]. 0 draws nothing, so the other scenarios' random streams are unchanged.
  double slow_process_share = 0.0;
  double slow_least = 0.3;
  double slow_most = 1.0;
  // The other heavy tail of those records: now and then one whole block runs about 20% off, faster or
  // slower (a block of 10 us kernels caught in a step of the clock or a preemption), which in
  // `scripts/aa-check 2` (4 December 2026) was 2-5% of the blocks. Paired design only: today's design takes the
  // median of a process's whole slot, which a few milliseconds off do not move. 0 draws nothing.
  double block_outlier_share = 0.0;
  double block_outlier = 0.2;
};

// A block's extra log offset: +/-log(1 + block_outlier) when it is one of the blocks far off.
inline double block_outlier_offset(const MachineNoise& noise, std::mt19937_64& engine) {
  if (noise.block_outlier_share <= 0.0) return 0.0;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  if (uniform(engine) >= noise.block_outlier_share) return 0.0;
  const double off = std::log1p(noise.block_outlier);
  return uniform(engine) < 0.5 ? off : -off;
}

// A process's extra log offset on one benchmark: log(1 + slowdown) when it is one of the slow ones.
inline double heavy_tail_offset(const MachineNoise& noise, std::mt19937_64& engine) {
  if (noise.slow_process_share <= 0.0) return 0.0;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  if (uniform(engine) >= noise.slow_process_share) return 0.0;
  return std::log1p(noise.slow_least + (noise.slow_most - noise.slow_least) * uniform(engine));
}

// The machine's log speed on a 5 ms grid, drawn lazily from its own seed, so that every design that
// asks for time t gets the same value whatever it asked before.
class Machine {
 public:
  Machine(const MachineNoise& noise, std::uint64_t seed) : noise_(noise), engine_(seed) {}

  double log_speed(double seconds) {
    const auto index = static_cast<std::size_t>(std::max(0.0, seconds) / kGridSeconds);
    while (path_.size() <= index) extend();
    return path_[index];
  }
  const MachineNoise& noise() const { return noise_; }

 private:
  static constexpr double kGridSeconds = 0.005;
  void extend() {
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    const double keep = std::exp(-kGridSeconds / noise_.drift_seconds);
    if (path_.empty()) {
      drift_ = noise_.drift_sd * normal(engine_);
      rung_ = static_cast<int>(uniform(engine_) * noise_.rungs);
    } else {
      drift_ = keep * drift_ + noise_.drift_sd * std::sqrt(1.0 - keep * keep) * normal(engine_);
      if (uniform(engine_) < noise_.steps_per_second * kGridSeconds) {
        const bool up = rung_ == 0 || (rung_ + 1 < noise_.rungs && uniform(engine_) < 0.5);
        rung_ += up ? 1 : -1;
      }
    }
    path_.push_back(drift_ + noise_.step * rung_);
  }
  MachineNoise noise_;
  std::mt19937_64 engine_;
  std::vector<double> path_;
  double drift_ = 0.0;
  int rung_ = 0;
};

struct SimulatedBenchmark {
  double sample_seconds = 0.001;  // the true time of one sample
  double change = 0.0;            // the candidate's planted relative change (0.02: 2% slower)
};

// The twelve CPU reduce and bandwidth rows of the issue span about 10 us to 20 ms a sample.
inline std::vector<SimulatedBenchmark> default_suite(double change) {
  std::vector<SimulatedBenchmark> suite;
  suite.reserve(12);
  for (int i = 0; i < 12; ++i) suite.push_back({1e-5 * std::pow(2.0, i), change});
  return suite;
}

// One process running samples on the machine, its own clock advancing as it does.
struct SimulatedProcess {
  double offset = 0.0;
  double change = 0.0;  // log scale
};

inline std::vector<double> run_samples(Machine& machine, std::mt19937_64& engine, const SimulatedProcess& process,
                                       const SimulatedBenchmark& benchmark, std::size_t count, double& clock) {
  std::normal_distribution<double> normal(0.0, machine.noise().within_sd);
  std::vector<double> samples(count);
  for (double& sample : samples) {
    sample = benchmark.sample_seconds *
             std::exp(machine.log_speed(clock) + process.offset + process.change + normal(engine));
    clock += sample;
  }
  return samples;
}

struct DesignOutcome {
  std::vector<Verdict> verdicts;
  std::vector<double> ratios;
  std::vector<std::optional<double>> mdes;  // paired design only
  double seconds = 0.0;                     // the run's simulated wall time
};

// Today's design: `processes` base processes and as many candidate ones, alternating, each running the
// whole suite (`seconds_per_benchmark` of samples each, after 10 samples of warm-up), so that a
// benchmark's two sides are a process (about 8 s) apart; compared as gbx compare does now.
struct TodayDesign {
  std::size_t processes = 6;
  double process_start_seconds = 0.2;
  double seconds_per_benchmark = 0.6;  // 12 benchmarks: about 8 s a process, 95 s a run as measured
  double q = 0.05;
};

inline constexpr double kTodayMostSamples = 4000;

// One outcome per entry of noise_bands (the same data decided with each band).
inline std::vector<DesignOutcome> run_today(Machine& machine, std::mt19937_64& engine,
                                            const std::vector<SimulatedBenchmark>& suite, const TodayDesign& design,
                                            const std::vector<double>& noise_bands) {
  std::normal_distribution<double> offset(0.0, machine.noise().process_sd);
  const std::size_t m = suite.size();
  std::vector<std::vector<std::vector<double>>> base(m), candidate(m);
  double clock = 0.0;
  for (std::size_t p = 0; p < 2 * design.processes; ++p) {
    const bool is_candidate = p % 2 == 1;
    clock += design.process_start_seconds;
    const double own_offset = offset(engine);
    for (std::size_t b = 0; b < m; ++b) {
      SimulatedProcess process{own_offset + heavy_tail_offset(machine.noise(), engine),
                               is_candidate ? std::log1p(suite[b].change) : 0.0};
      // The slot's samples, at most kTodayMostSamples of them drawn: beyond that they refine a median
      // whose noise (0.2% / sqrt(n)) is already far below the processes' offsets; the clock still
      // advances by the whole slot.
      const double slot_end = clock + std::max(design.seconds_per_benchmark, 16.0 * suite[b].sample_seconds);
      const auto count = static_cast<std::size_t>(
          std::clamp(design.seconds_per_benchmark / suite[b].sample_seconds, 6.0, kTodayMostSamples));
      run_samples(machine, engine, process, suite[b], 10, clock);  // warm-up
      (is_candidate ? candidate : base)[b].push_back(run_samples(machine, engine, process, suite[b], count, clock));
      clock = std::max(clock, slot_end);
    }
  }
  std::vector<HierarchicalRatio> ratios;
  std::vector<double> p_values;
  for (std::size_t b = 0; b < m; ++b) {
    const auto ratio = hierarchical_ratio(base[b], candidate[b], 0.0, 0.0);
    ratios.push_back(ratio.value_or(HierarchicalRatio{}));
    p_values.push_back(ratio ? ratio->p_value : 1.0);
  }
  const std::vector<double> adjusted = benjamini_hochberg(p_values);
  std::vector<DesignOutcome> outcomes;
  for (double band : noise_bands) {
    DesignOutcome outcome;
    outcome.seconds = clock;
    for (std::size_t b = 0; b < m; ++b) {
      ComparisonEvidence evidence;
      for (const auto& group : base[b]) evidence.base_samples += group.size();
      for (const auto& group : candidate[b]) evidence.candidate_samples += group.size();
      evidence.base_processes = evidence.candidate_processes = design.processes;
      outcome.verdicts.push_back(decide(adjusted[b], ratios[b].interval, evidence, band, design.q));
      outcome.ratios.push_back(ratios[b].interval.ratio);
      outcome.mdes.push_back(std::nullopt);
    }
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

// The paired design: worker pairs (a base and a candidate process started together) each run, for
// every undecided benchmark, its planned block pairs in a random order within each pair; looks follow
// look_schedule, and the budget left when benchmarks stop goes to the rest (a larger maximum).
struct PairedDesign {
  double budget_seconds = 12 * kDefaultBudgetSecondsPerBenchmark;
  double pair_start_seconds = 0.3;
  double warmup_samples = 2.0;            // each block's own warm-up
  double block_overhead_seconds = 0.005;  // each block's fixed cost: the order to the worker, its reply
  std::size_t most_pairs = 60;            // a cap on how far the budget left may stretch the run
  bool replan = true;  // each look splits the undecided rows' next pairs from their measured variance, as gbx ab
  // At each look but the last, a row that even the whole budget left could not decide stops (stop_if_futile,
  // as gbx ab --futility): its reachable pairs at its own cost per pair, the start-up included.
  bool futility = false;
  SequentialDesign sequential;
};

inline DesignOutcome run_paired(Machine& machine, std::mt19937_64& engine, const std::vector<SimulatedBenchmark>& suite,
                                const PairedDesign& design, std::vector<SequentialRow>* rows_out = nullptr) {
  const std::size_t m = suite.size();
  // Plan from the assumed components (a real run plans again once it has measured them).
  PairedVariance assumed;
  assumed.within_block = std::log1p(kAssumedWithinBlockCv * kAssumedWithinBlockCv);
  assumed.between_blocks = std::log1p(kAssumedBetweenBlocksCv * kAssumedBetweenBlocksCv);
  // The planner's floor counts the rows that Benjamini-Hochberg adjusts together, as gbx ab's does.
  SequentialDesign planned = design.sequential;
  planned.benchmarks = m;
  std::vector<PairedPlan> plans;
  std::vector<PairedCosts> costs;
  double seconds_per_pair = design.pair_start_seconds;
  for (const SimulatedBenchmark& benchmark : suite) {
    costs.push_back({benchmark.sample_seconds,
                     design.warmup_samples * benchmark.sample_seconds + design.block_overhead_seconds,
                     design.pair_start_seconds / static_cast<double>(m)});
    plans.push_back(
        plan_paired(assumed, costs.back(), design.budget_seconds / static_cast<double>(m), planned).value());
    seconds_per_pair += plans.back().seconds_per_pair - costs.back().pair_start_seconds;
  }
  const std::size_t most =
      std::clamp<std::size_t>(static_cast<std::size_t>(design.budget_seconds / seconds_per_pair), 2, design.most_pairs);
  SequentialDesign sequential = design.sequential;
  sequential.looks = look_schedule(most);
  std::size_t next_look = sequential.looks.front();

  std::normal_distribution<double> offset(0.0, machine.noise().process_sd);
  std::bernoulli_distribution coin(0.5);
  std::vector<std::vector<WorkerPairBlocks>> pairs(m);
  std::vector<SequentialRow> rows(m);
  double clock = 0.0;
  for (std::size_t k = 1;; ++k) {
    clock += design.pair_start_seconds;
    const double base_offset = offset(engine);
    const double candidate_offset = offset(engine);
    for (std::size_t b = 0; b < m; ++b) {
      if (rows[b].stopped) continue;
      const SimulatedProcess base{base_offset + heavy_tail_offset(machine.noise(), engine), 0.0};
      const SimulatedProcess candidate{candidate_offset + heavy_tail_offset(machine.noise(), engine),
                                       std::log1p(suite[b].change)};
      const auto warmup = static_cast<std::size_t>(design.warmup_samples);
      WorkerPairBlocks pair;
      for (std::size_t j = 0; j < plans[b].block_pairs_per_pair; ++j) {
        BlockPair block_pair;
        block_pair.candidate_first = coin(engine);
        block_pair.start_seconds = clock;
        for (int half = 0; half < 2; ++half) {
          const bool candidate_now = (half == 0) == block_pair.candidate_first;
          SimulatedProcess process = candidate_now ? candidate : base;
          process.offset += block_outlier_offset(machine.noise(), engine);
          clock += design.block_overhead_seconds;
          run_samples(machine, engine, process, suite[b], warmup, clock);
          (candidate_now ? block_pair.candidate : block_pair.base) =
              run_samples(machine, engine, process, suite[b], plans[b].samples_per_block, clock);
        }
        pair.block_pairs.push_back(std::move(block_pair));
      }
      pairs[b].push_back(std::move(pair));
    }
    // Each running row's next pairs planned again from its measured components, as gbx ab does after
    // every pair (between looks from an analysis that decides nothing).
    const auto split_again = [&](std::size_t b, const std::optional<PairedAnalysis>& analysis, std::size_t running) {
      if (!design.replan || !analysis) return;
      PairedCosts now = costs[b];
      now.pair_start_seconds = design.pair_start_seconds / static_cast<double>(running);
      const double share = std::max(design.budget_seconds - clock, 1e-3) / static_cast<double>(running);
      if (auto plan = plan_paired(analysis->variance, now, share, planned, k)) {
        plans[b] = *plan;
        costs[b] = now;  // the costs the plan was made with, so that its pair cost subtracts its own share
      }
    };
    std::size_t running = 0;
    for (const SequentialRow& row : rows) running += row.stopped ? 0 : 1;
    if (k < next_look) {
      for (std::size_t b = 0; b < m; ++b) {
        if (!rows[b].stopped) split_again(b, analyze_pairs(pairs[b], sequential.options), running);
      }
      continue;
    }
    // The cost of one more pair for the benchmarks still running, and what the budget left affords.
    const bool last = k >= sequential.looks.back();
    sequential_look(pairs, rows, sequential, last);
    for (std::size_t b = 0; b < m && design.futility && !last; ++b) {
      const auto reachable =
          reachable_pairs(k, design.budget_seconds - clock,
                          design.pair_start_seconds + plans[b].seconds_per_pair - costs[b].pair_start_seconds,
                          std::max(design.most_pairs, k + 1));
      if (reachable) stop_if_futile(rows[b], *reachable, sequential.options);
    }
    running = 0;
    for (const SequentialRow& row : rows) running += row.stopped ? 0 : 1;
    double cost = design.pair_start_seconds;
    for (std::size_t b = 0; b < m; ++b) {
      if (rows[b].stopped) continue;
      if (!last) split_again(b, rows[b].analysis, running);
      cost += plans[b].seconds_per_pair - costs[b].pair_start_seconds;
    }
    const bool any_running = running > 0;
    if (last || !any_running) break;
    const auto affordable = static_cast<std::size_t>(std::max(0.0, design.budget_seconds - clock) / cost);
    if (affordable == 0) {  // the budget is spent: this look becomes the last, on the data it has
      sequential_look(pairs, rows, sequential, true);
      break;
    }
    sequential.looks.back() = std::min(k + affordable, std::max(design.most_pairs, k + 1));
    next_look = std::min(2 * k, sequential.looks.back());
  }
  DesignOutcome outcome;
  outcome.seconds = clock;
  for (const SequentialRow& row : rows) {
    outcome.verdicts.push_back(row.decision.verdict);
    outcome.ratios.push_back(row.analysis ? row.analysis->ratio : 1.0);
    outcome.mdes.push_back(row.mde);
  }
  if (rows_out != nullptr) *rows_out = std::move(rows);
  return outcome;
}

}  // namespace gbx::ab_model

#include "ab/interleaved.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>

#include "ab/records.h"
#include "ab/sides.h"
#include "analysis/pareto.h"
#include "analysis/record_comparison.h"
#include "model/interrupt.h"
#include "model/protocol.h"
#include "processes/cpu_affinity.h"
#include "processes/pair_memory_directory.h"
#include "processes/process_runner.h"
#include "processes/shared_inputs.h"
#include "processes/worker_client.h"
#include "processes/worker_malloc.h"
#include "record/atomic_file.h"
#include "record/checksum.h"
#include "stats/statistics.h"
#include "text/format.h"
#include "writer/process_merge.h"
#include "writer/record_finisher.h"

namespace gbx::tools {

namespace {

using namespace ab_sides;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string seconds_text(double s) { return format_fixed(s, s < 1 ? 2 : s < 10 ? 1 : 0) + " s"; }

// The most worker pairs a run plans (looks after 5, 10, 20, ... and at the last: look_schedule).
constexpr std::int64_t kMaxPairs = 160;
// The fewest worker pairs a run may plan: with 2 the sign-flip p is at least 0.5 and the t interval has
// one degree of freedom, so nothing could be decided.
constexpr std::int64_t kMinPairs = 3;
// A block's sampling lasts about this long: short against the drift (seconds), long against a
// block's fixed cost (its warm-up and batch calibration).
constexpr double kBlockSamplingSeconds = 0.03;
// A block after the first of its worker reuses the setup (the fixture is held between blocks), so its
// warm-up only refills the caches the other side's block evicted: the runs that fit in about this
// long, at least one (one run touches all the kernel's data), never more than declared.
constexpr double kBlockWarmupSeconds = 0.01;

std::size_t active_rows(const std::vector<Row>& rows) {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.active; }));
}

}  // namespace

std::optional<double> parse_duration_seconds(const std::string& text) {
  if (text.empty()) return std::nullopt;
  double total = 0.0;
  std::size_t at = 0;
  while (at < text.size()) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str() + at, &end);
    const std::size_t used = static_cast<std::size_t>(end - (text.c_str() + at));
    if (used == 0 || !std::isfinite(value) || value < 0.0 || text[at] == '+' || text[at] == '-') return std::nullopt;
    at += used;
    std::string unit;
    while (at < text.size() && std::isalpha(static_cast<unsigned char>(text[at]))) unit += text[at++];
    const double scale = unit == "ms"                ? 0.001
                         : unit == "" || unit == "s" ? 1.0
                         : unit == "m"               ? 60.0
                         : unit == "h"               ? 3600.0
                                                     : -1.0;
    if (scale < 0.0 || (unit.empty() && at < text.size())) return std::nullopt;
    total += value * scale;
  }
  return total > 0.0 ? std::optional<double>(total) : std::nullopt;
}

AbResult run_interleaved(const AbOptions& given, std::ostream& err) {
  const Clock::time_point started = Clock::now();
  AbOptions options = given;
  // Paired blocks cancel the drift, so a change far smaller than the whole-process band can be shown;
  // the band must stay well below the equivalence margin, or a change of the margin is never called.
  if (!options.noise_band_given) options.noise_band = kPairedNoiseBand;
  const auto budget = parse_duration_seconds(options.budget);
  if (!budget) {
    err << "gbx ab: invalid value '" << options.budget
        << "' for --budget: expected a duration such as 90s, 5m or 1h30m\n";
    return ab_ended(2);
  }
  if (options.processes_given && options.processes < kMinPairs) {
    err << "gbx ab: --processes " << options.processes << " is too few: the interleaved design needs at least "
        << kMinPairs << " worker pairs to decide anything\n";
    return ab_ended(2);
  }
  const bool variants = !options.base_filter.empty() || !options.candidate_filter.empty();
  if (variants && (options.base_filter.empty() || options.candidate_filter.empty())) {
    err << "gbx ab: --base-filter and --candidate-filter go together\n";
    return ab_ended(2);
  }
  const std::optional<PairTest> test_given = parse_pair_test(options.pair_test);
  if (!test_given) {
    err << "gbx ab: invalid value '" << options.pair_test
        << "' for --pair-test: expected signed-rank, t or weighted-sign-flip\n";
    return ab_ended(2);
  }
  const PairTest test = *test_given;
  const CpuChoice cpu = pin_to_cpu(options.affinity);
  if (!cpu.error.empty()) {
    err << "gbx ab: invalid value '" << options.affinity << "' for --affinity: " << cpu.error << "\n";
    return ab_ended(2);
  }
  std::random_device device;
  const std::uint64_t seed =
      options.seed ? *options.seed : ((static_cast<std::uint64_t>(device()) << 32) ^ device()) & 0xffffffffffffULL;
  const detail::CommandLine line = detail::parse_command_line(options.bench_args);
  const SharedInputsDirectory shared_inputs;    // the workers draw each random input once, not once a pair
  const WorkerMallocInHugePages worker_malloc;  // a worker's setup faults in 2 MiB pages, not 4 KiB ones
  // A pair's two workers on the same pages (where the machine put them cancels in the pair).
  PairMemoryDirectories pair_memory(options.pair_memory != "private", options.pair_memory_root);
  Side sides[2];
  sides[0].role = "base";
  sides[1].role = "candidate";
  sides[0].binary = options.base;
  sides[1].binary = options.candidate;
  std::vector<std::string> listed[2];
  for (int s = 0; s < 2; ++s) {
    Side& side = sides[s];
    side.args = options.bench_args;
    std::vector<std::string> list_args = options.bench_args;
    if (variants)
      list_args.push_back("--benchmark_filter=" + (s == 0 ? options.base_filter : options.candidate_filter));
    try {
      listed[s] = list_benchmarks(side.binary, list_args);
      side.description = describe_binary(side.binary, options.bench_args);
    } catch (const std::exception& error) {
      err << "gbx ab: " << error.what() << "\n";
      return ab_ended(2);
    }
    if (listed[s].empty()) {
      err << "gbx ab: " << side.binary << " selects no benchmark with these flags"
          << (variants ? std::string(" and --") + side.role + "-filter" : "") << "\n";
      return ab_ended(2);
    }
  }
  // Incompatible binaries: refused before anything runs, as `gbx compare` refuses their records.
  const auto differences = gate_differences({{"gbx", {{"environment", sides[0].description.environment}}}},
                                            {{"gbx", {{"environment", sides[1].description.environment}}}});
  if (!differences.empty()) {
    err << "gbx ab: the binaries are not compatible; these facts differ:\n";
    for (const auto& d : differences)
      err << "  " << d.what << "  base: " << d.base << "  candidate: " << d.candidate << "\n";
    if (!options.allow_incompatible) {
      err << "Timings from different hardware or software differ for reasons other than the change under test; "
             "pass --allow-incompatible to compare anyway.\n";
      return ab_ended(2);
    }
  }
  std::vector<std::string> only[2];
  std::vector<Row> rows = match_rows(listed, variants, only);
  for (int s = 0; s < 2; ++s) {
    for (const auto& name : only[s])
      err << "gbx ab: only the " << sides[s].role << " lists " << name << ": not compared\n";
  }
  if (rows.empty()) {
    err << "gbx ab: the base and the candidate list no benchmark in common\n";
    return ab_ended(2);
  }

  install_interrupt_handlers();
  const std::string stamp = utc_timestamp(true);
  for (Side& side : sides) {
    std::vector<std::string> command{side.binary};
    command.insert(command.end(), options.bench_args.begin(), options.bench_args.end());
    command.push_back("--gbx_worker=3");
    side.header = RecordHeader{new_run_id(), utc_timestamp(), command, line.protocol};
    side.path = options.out_dir + "/" + stamp + "-" + side.header.run_id + "-" + side.role + ".json";
  }
  // Pair 0's workers, then a pilot block of each row on the base: the time of a sample and of a
  // block's fixed cost, from which the samples per block and the plan follow. Pilot blocks are not kept.
  // Each pair's two workers start in a random order (their own engine, so the block orders stay those
  // of the seed): the one started second finds the machine, and its free memory, in another state, and
  // base and candidate must stay exchangeable for the signed-rank test's symmetry.
  std::mt19937_64 launch_coin(seed ^ 0x9e3779b97f4a7c15ULL);
  const auto start_pair = [&](std::int64_t pair) {
    const int first = static_cast<int>(launch_coin() >> 63);
    pair_memory.enter(pair);
    start_worker(sides[first], pair, rows);
    start_worker(sides[1 - first], pair, rows);
    pair_memory.drop_before(pair);
  };
  const Clock::time_point startup_at = Clock::now();
  start_pair(0);
  const double startup = seconds_since(startup_at);
  for (Side& side : sides) {
    if (!side.worker->lost_because().empty()) {
      err << "gbx ab: " << side.worker->lost_because() << "\n";
      return ab_ended(2);
    }
  }
  int pilot_signal = 0;
  for (auto& row : rows) {
    const Clock::time_point at = Clock::now();
    WorkerBlock pilot =
        sides[0].worker->run_block(row.names[0], kPilotSamples, 0, options.benchmark_timeout_seconds, row.label);
    const double wall = seconds_since(at);
    if (pilot.status == WorkerBlock::Status::interrupted || interrupt_requested()) {
      pilot_signal = interrupt_requested() ? interrupt_signal() : SIGINT;
      break;
    }
    if (pilot.status == WorkerBlock::Status::failed) {
      keep(sides[0], static_cast<std::size_t>(&row - rows.data()), row, 0, -1, 0, pilot);
      row.failure = "base: " + pilot.failure;
      row.active = false;
      err << "gbx ab: " << row.label << " failed: " << row.failure << "\n";
      if (pilot.worker_lost) start_worker(sides[0], 0, rows);
      continue;
    }
    // Skipped here (a CUDA benchmark without a device): no block would hold a sample, so the row says
    // why rather than "no complete block pair".
    if (!pilot.rows.empty() && pilot.rows.front().record && pilot.rows.front().record->skipped) {
      const auto& skipped = *pilot.rows.front().record;
      row.failure = skipped.error.empty() ? "skipped: " + skipped.skip_code : skipped.error;
      row.active = false;
      err << "gbx ab: " << row.label << " " << row.failure << "\n";
      continue;
    }
    double sample_wall = 0.0;
    if (!pilot.rows.empty() && pilot.rows.front().record) {
      const auto& m = pilot.rows.front().record->measurement;
      sample_wall = median(m.samples).value_or(0.0) * static_cast<double>(std::max<std::int64_t>(1, m.batch));
      row.pilot_within_block = within_block_log_spread(m.samples);
    }
    row.samples = sample_wall > 0.0 ? std::clamp<std::int64_t>(
                                          static_cast<std::int64_t>(std::ceil(kBlockSamplingSeconds / sample_wall)),
                                          kMinBlockSamples, kMaxBlockSamples)
                                    : kMinBlockSamples;
    const std::int64_t declared_warmup = line.protocol.warmup_auto ? 0 : line.protocol.warmup_runs;
    row.warmup = sample_wall > 0.0 && declared_warmup > 0
                     ? std::clamp<std::int64_t>(
                           static_cast<std::int64_t>(std::floor(kBlockWarmupSeconds / sample_wall)), 1, declared_warmup)
                     : 0;
    // The pilot paid the setup, the declared warm-up and the accuracy check's run; a held block pays
    // its short warm-up and its samples.
    row.held_warmup_runs = row.warmup > 0 ? row.warmup : declared_warmup;
    row.sample_seconds = sample_wall;
    row.setup_seconds = std::max(0.0, wall - static_cast<double>(declared_warmup + kPilotSamples) * sample_wall);
    row.block_seconds = static_cast<double>(row.held_warmup_runs + row.samples) * sample_wall;
    row.block_pairs = options.blocks_per_pair;
    row.splits.push_back({0, row.samples, row.block_pairs});
  }
  const std::int64_t cap = options.processes_given ? options.processes : kMaxPairs;
  const std::int64_t first_look = std::min<std::int64_t>(5, cap);
  // The run's design before any look: its options and its planner's floor hold for the whole run.
  const SequentialDesign design_at_start =
      ab_design(options.noise_band, options.equivalence, options.fdr, cap, rows.size(), test);
  if (!options.blocks_given && pilot_signal == 0)
    plan_first_pairs(rows, startup, *budget - seconds_since(started), design_at_start, first_look);
  std::int64_t fewest = options.blocks_per_pair;  // pair 0's block pairs, over the rows
  std::int64_t most = 0;
  for (const Row& row : rows) {
    if (!row.active) continue;
    fewest = most == 0 ? row.block_pairs : std::min(fewest, row.block_pairs);
    most = std::max(most, row.block_pairs);
  }
  const std::string blocks =
      most == 0 || fewest == most ? std::to_string(fewest) : std::to_string(fewest) + "-" + std::to_string(most);
  double per_pair = pair_seconds(rows, startup);
  const double left = *budget - seconds_since(started);
  std::int64_t planned = std::min<std::int64_t>(cap, static_cast<std::int64_t>(std::floor(left / per_pair)));
  if (pilot_signal == 0 && (planned < first_look || planned < kMinPairs)) {
    err << "gbx ab: --budget=" << options.budget << " is too small for one look: the first look needs " << first_look
        << " worker pairs, about " << seconds_text(static_cast<double>(first_look) * per_pair + seconds_since(started))
        << " here (" << rows.size() << " benchmarks x " << blocks << " block pairs); give a larger --budget\n";
    return ab_ended(2);
  }
  if (pilot_signal == 0)
    err << "gbx ab: plan: " << rows.size() << " benchmarks, " << blocks << " interleaved block pairs per worker pair, "
        << (options.blocks_given ? "" : "at first (planned from each row's pilot block), ") << "blocks of "
        << kMinBlockSamples << "-" << kMaxBlockSamples << " samples (about "
        << format_fixed(1000 * kBlockSamplingSeconds, 0) << " ms of sampling each)"
        << (options.blocks_given ? "" : ", both planned again after every pair from the measured variance")
        << ", workers " << (cpu.cpu ? "on CPU " + std::to_string(*cpu.cpu) : std::string("unpinned"))
        << ", looks after 5, 10, 20, ... worker "
        << "pairs with O'Brien-Fleming-type alpha spending; one worker pair takes about " << seconds_text(per_pair)
        << ", so " << planned << " pairs fit the budget of " << seconds_text(*budget) << " (first look after about "
        << seconds_text(seconds_since(started) + static_cast<double>(first_look) * per_pair) << ")\n";
  // An exact test's least p over few pairs cannot pass Benjamini-Hochberg across many rows: say so
  // before the run spends its budget on rows a lone change could not be called in.
  const auto needed = static_cast<std::int64_t>(plan_least_pairs(design_at_start));
  if (pilot_signal == 0 && planned < needed) {
    err << "gbx ab: note: with " << planned << " worker pairs the " << to_string(test)
        << " test cannot call one changed benchmark among " << rows.size() << " by itself at --fdr "
        << format_fixed(options.fdr, 2) << " (its least p is 2^(1-pairs); it needs " << needed << " pairs";
    if (planned >= cap)
      err << "): give --processes " << needed;
    else
      err << ", about " << seconds_text(seconds_since(started) + static_cast<double>(needed) * per_pair)
          << " here): give a larger --budget";
    err << ", or compare fewer benchmarks\n";
  }

  nlohmann::json looks = nlohmann::json::array();
  std::mt19937_64 coin(seed);
  int signal = pilot_signal;
  std::int64_t pair = 0;
  const auto any_active = [&rows] {
    return std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.active; });
  };
  // The undecided rows' next pairs, split anew from their variance as measured so far (analysis_of a
  // row), each row with its share of the budget left and of a pair's start-up.
  const auto split_again = [&](std::int64_t next_pair, const SequentialDesign& design_of_run, const auto& analysis_of) {
    const auto undecided = static_cast<double>(active_rows(rows));
    if (undecided == 0.0) return;
    const double budget_share = std::max(0.0, *budget - seconds_since(started)) / undecided;
    for (auto& row : rows) {
      if (!row.active) continue;
      const std::optional<PairedAnalysis> analysis = analysis_of(row);
      if (analysis)
        replan(row, *analysis, startup / undecided + 2.0 * row.setup_seconds, budget_share, options.blocks_given,
               next_pair, design_of_run);
    }
  };
  // The pilot's estimate of a pair, scaled by how far the last pair's measured time departed from its
  // estimate: on a loaded machine the cost of a block grows, and the budget must see it.
  double slowdown = 1.0;
  // What the analysis cannot do (a defect) must not lose what was measured: both records are still
  // written, with the blocks that finished, and the run ends undecided.
  std::string analysis_failure;
  try {
    while (pair < planned && any_active() && signal == 0) {
      const Clock::time_point pair_started = Clock::now();
      const double pair_estimate = pair_seconds(rows, pair == 0 ? 0.0 : startup);
      if (pair > 0) start_pair(pair);
      std::vector<std::size_t> order;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].active) order.push_back(i);
      }
      std::shuffle(order.begin(), order.end(), coin);
      for (std::size_t index : order) {
        Row& row = rows[index];
        // 0: base first, 1: candidate first. The coin orders the first block pair of each two, the
        // next takes the other order, so that the pair estimate's two orders are balanced.
        int first = 0;
        for (std::int64_t b = 0; b < row.block_pairs && row.active && signal == 0; ++b) {
          first = b % 2 == 0 ? static_cast<int>(coin() >> 63) : 1 - first;
          for (int k = 0; k < 2 && row.active; ++k) {
            Side& side = sides[(first + k) % 2];
            const int s = (first + k) % 2;
            const Clock::time_point block_started = Clock::now();
            WorkerBlock got = side.worker->run_block(row.names[s], row.samples, row.warmup,
                                                     options.benchmark_timeout_seconds, row.label);
            if (!got.why_private.empty() && !row.private_memory_told) {
              row.private_memory_told = true;
              err << "gbx ab: " << row.label << ": the " << side.role
                  << " measures on its own pages, not its pair's: " << got.why_private << "\n";
            }
            if (got.status == WorkerBlock::Status::ok) count_block_time(row, b == 0, seconds_since(block_started));
            if (got.status == WorkerBlock::Status::interrupted) {
              signal = got.signal != 0 ? got.signal : SIGINT;
              break;
            }
            keep(side, index, row, pair, b, k, got);
            if (got.status == WorkerBlock::Status::failed) {
              row.failure = side.role + ": " + got.failure;
              row.active = false;
              err << "gbx ab: " << row.label << " failed: " << row.failure << "\n";
              if (got.worker_lost) start_worker(side, pair, rows);  // the rest go on in a fresh worker
            }
          }
        }
        if (signal != 0 || interrupt_requested()) break;
      }
      if (interrupt_requested() && signal == 0) signal = interrupt_signal();
      if (signal != 0) break;
      ++pair;
      const double elapsed = seconds_since(started);
      if (pair_estimate > 0.0) slowdown = std::max(1.0, seconds_since(pair_started) / pair_estimate);
      per_pair = slowdown * pair_seconds(rows, startup);
      // The pairs planned are spent, but not the budget (the plan at the start saw each row's first split,
      // and the costs measured since may be lower): the maximum grows, as it does at a look, before this
      // pair is weighed as a look, so that the looks stay 5, 10, 20, ... and the last.
      if (pair >= planned && pair < cap && elapsed + per_pair <= *budget) {
        const auto more = static_cast<std::int64_t>(std::floor((*budget - elapsed) / per_pair));
        planned = std::min(cap, pair + std::max<std::int64_t>(1, more));
      }
      const std::vector<std::size_t> schedule = look_schedule(static_cast<std::size_t>(planned));
      const bool at_look =
          std::find(schedule.begin(), schedule.end(), static_cast<std::size_t>(pair)) != schedule.end();
      std::vector<AbBlock> all = sides[0].blocks;
      all.insert(all.end(), sides[1].blocks.begin(), sides[1].blocks.end());
      const SequentialDesign design_of_run =
          ab_design(options.noise_band, options.equivalence, options.fdr, planned, rows.size(), test);
      // Between looks the undecided rows are split again too, from an analysis that decides nothing: a
      // row whose block pairs disagree far more than its pairs (a 64 MiB bandwidth row) gets its many
      // block pairs from its second pair on, not from its sixth.
      if (!at_look && pair < planned) {
        split_again(pair, design_of_run,
                    [&](const Row& row) { return analyze_pairs(worker_pairs(row.label, all), design_of_run.options); });
      }
      per_pair = slowdown * pair_seconds(rows, startup);
      const bool out_of_time = elapsed + per_pair > *budget;
      if (!at_look && !out_of_time && pair < planned) continue;
      const bool last = out_of_time || pair >= planned;
      // The look (stats/sequential.h): each undecided row's repeated intervals at this look's boundaries
      // of the planned pairs; the last look spends what is left.
      std::vector<std::vector<WorkerPairBlocks>> by_row;
      by_row.reserve(rows.size());
      for (auto& row : rows) {
        by_row.push_back(worker_pairs(row.label, all));
        if (!row.failure.empty()) row.sequential.stopped = true;
      }
      std::vector<SequentialRow> state;
      state.reserve(rows.size());
      for (const auto& row : rows) state.push_back(row.sequential);
      sequential_look(by_row, state, design_of_run, last);
      std::vector<std::string> stopped;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        Row& row = rows[i];
        row.sequential = state[i];
        if (!row.active) continue;
        row.stopped_at = pair;
        if (row.sequential.stopped) {
          row.active = false;
          if (decided(row.sequential.decision.verdict)) stopped.push_back(row.label);
        }
      }
      const nlohmann::json futile =
          last || !options.futility
              ? nlohmann::json::array()
              : stop_futile_rows(rows, startup, slowdown, *budget - seconds_since(started), cap, design_of_run.options);
      looks.push_back({{"pairs", pair},
                       {"planned_pairs", planned},
                       {"final", last},
                       {"information_fraction",
                        std::min(1.0, last ? 1.0 : static_cast<double>(pair) / static_cast<double>(planned))},
                       {"elapsed_seconds", seconds_since(started)},
                       {"stopped", stopped},
                       {"futile", futile}});
      // What is left of the budget goes to the undecided rows: as many more pairs as fit.
      if (!last) split_again(pair, design_of_run, [](const Row& row) { return row.sequential.analysis; });
      per_pair = slowdown * pair_seconds(rows, startup);
      const std::int64_t more = static_cast<std::int64_t>(std::floor((*budget - seconds_since(started)) / per_pair));
      if (!last) planned = std::min(cap, std::max(planned, pair + more));
      const std::size_t undecided = active_rows(rows);
      err << "gbx ab: look after " << pair << " worker pairs (" << seconds_text(seconds_since(started))
          << "): " << stopped.size() << " decided, "
          << (futile.empty() ? ""
                             : std::to_string(futile.size()) + " stopped as the budget left could not decide them, ")
          << undecided << " undecided"
          << (undecided > 0 && !last ? ", going on to at most " + std::to_string(planned) + " pairs" : "") << "\n";
      if (last) break;
    }
  } catch (const std::exception& error) {
    analysis_failure = error.what();
    err << "gbx ab: the analysis failed after " << pair << " worker pairs: " << analysis_failure
        << "; both records keep the blocks that finished\n";
  }
  for (Side& side : sides) side.worker.reset();

  RunDesign run;
  run.seed = seed;
  run.budget_seconds = *budget;
  run.wall_seconds = seconds_since(started);
  run.cpu = cpu.cpu;
  run.worker_malloc = worker_malloc.description();
  run.pair_memory = pair_memory.description();
  run.pair_test = to_string(test);
  run.looks = looks;
  run.only_in_base = only[0];
  run.only_in_candidate = only[1];
  run.analysis_failure = analysis_failure;
  const nlohmann::json design = design_json(options, run);
  const std::string paths[2] = {sides[0].path, sides[1].path};
  const auto ended = write_side_records(
      [&](int s) {
        return side_record(sides[s], rows, design, sides[1 - s].header.run_id,
                           signal != 0 || !analysis_failure.empty());
      },
      paths, signal, err);
  if (ended) return ab_ended(*ended);
  if (!analysis_failure.empty()) return ab_ended(3);
  AbResult result;
  result.paths[0] = paths[0];
  result.paths[1] = paths[1];
  PairedComparison& comparison = result.comparison;
  comparison.noise_band = options.noise_band;
  comparison.equivalence = options.equivalence;
  comparison.design = design;
  comparison.only_in_base = only[0];
  comparison.only_in_candidate = only[1];
  for (auto& row : rows) {
    comparison.rows.push_back(result_from(row.label, row.sequential, design_at_start.options));
    comparison.rows.back().failure = row.failure;
  }
  // Each side's accuracy checks, read back from its record as written: a faster candidate that computes
  // wrongly fails.
  try {
    add_accuracy(comparison.rows, load_record(paths[0]), load_record(paths[1]));
  } catch (const std::exception& error) {
    err << "gbx ab: the records' accuracy checks could not be read back: " << error.what() << "\n";
    return ab_ended(3);
  }
  return result;
}

}  // namespace gbx::tools

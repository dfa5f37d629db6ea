#include "ab/interleaved.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>

#include "ab/interleaved_run.h"
#include "ab/records.h"
#include "analysis/record_comparison.h"
#include "model/interrupt.h"
#include "processes/process_runner.h"
#include "processes/worker_client.h"
#include "record/atomic_file.h"
#include "stats/statistics.h"
#include "text/format.h"
#include "writer/record_finisher.h"

namespace gbx::tools {

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

AbResult run_interleaved(const AbOptions& options, std::ostream& err) { return interleaved::Run(options, err).run(); }

namespace interleaved {

using namespace ab_sides;

Run::Run(const AbOptions& options, std::ostream& err) : options_(options), err_(err) {}

AbResult Run::run() {
  if (const auto bad = validate()) return ab_ended(*bad);
  if (const auto bad = match()) return ab_ended(*bad);
  if (const auto bad = launch()) return ab_ended(*bad);
  pilot();
  if (const auto bad = plan()) return ab_ended(*bad);
  run_pairs();
  return write();
}

std::optional<int> Run::validate() {
  // Paired blocks cancel the drift, so a change far smaller than the whole-process band can be shown;
  // the band must stay well below the equivalence margin, or a change of the margin is never called.
  if (!options_.noise_band_given) options_.noise_band = kPairedNoiseBand;
  budget_auto_ = options_.budget == "auto";
  const std::string& budget_flag = budget_auto_ ? "--max-budget" : "--budget";
  const auto budget = parse_duration_seconds(budget_auto_ ? options_.max_budget : options_.budget);
  if (!budget) {
    err_ << "gbx ab: invalid value '" << (budget_auto_ ? options_.max_budget : options_.budget) << "' for "
         << budget_flag << ": expected a duration such as 90s, 5m or 1h30m" << (budget_auto_ ? "" : ", or auto")
         << "\n";
    return 2;
  }
  budget_ = *budget;
  target_mde_ = options_.target_mde > 0.0 ? options_.target_mde : options_.equivalence;
  if (options_.processes_given && options_.processes < kMinPairs) {
    err_ << "gbx ab: --processes " << options_.processes << " is too few: the interleaved design needs at least "
         << kMinPairs << " worker pairs to decide anything\n";
    return 2;
  }
  variants_ = !options_.base_filter.empty() || !options_.candidate_filter.empty();
  if (variants_ && (options_.base_filter.empty() || options_.candidate_filter.empty())) {
    err_ << "gbx ab: --base-filter and --candidate-filter go together\n";
    return 2;
  }
  const std::optional<PairTest> test_given = parse_pair_test(options_.pair_test);
  if (!test_given) {
    err_ << "gbx ab: invalid value '" << options_.pair_test
         << "' for --pair-test: expected signed-rank, t or weighted-sign-flip\n";
    return 2;
  }
  test_ = *test_given;
  cpu_ = pin_to_cpu(options_.affinity);
  if (!cpu_.error.empty()) {
    err_ << "gbx ab: invalid value '" << options_.affinity << "' for --affinity: " << cpu_.error << "\n";
    return 2;
  }
  std::random_device device;
  seed_ =
      options_.seed ? *options_.seed : ((static_cast<std::uint64_t>(device()) << 32) ^ device()) & 0xffffffffffffULL;
  line_ = detail::parse_command_line(options_.bench_args);
  return std::nullopt;
}

std::optional<int> Run::match() {
  shared_inputs_.emplace();
  worker_malloc_.emplace();
  pair_memory_.emplace(options_.pair_memory != "private", options_.pair_memory_root);
  sides_[0].role = "base";
  sides_[1].role = "candidate";
  sides_[0].binary = options_.base;
  sides_[1].binary = options_.candidate;
  for (int s = 0; s < 2; ++s) {
    Side& side = sides_[s];
    side.args = options_.bench_args;
    std::vector<std::string> list_args = options_.bench_args;
    if (variants_)
      list_args.push_back("--benchmark_filter=" + (s == 0 ? options_.base_filter : options_.candidate_filter));
    try {
      listed_[s] = list_benchmarks(side.binary, list_args);
      side.description = describe_binary(side.binary, options_.bench_args);
    } catch (const std::exception& error) {
      err_ << "gbx ab: " << error.what() << "\n";
      return 2;
    }
    if (listed_[s].empty()) {
      err_ << "gbx ab: " << side.binary << " selects no benchmark with these flags"
           << (variants_ ? std::string(" and --") + side.role + "-filter" : "") << "\n";
      return 2;
    }
  }
  // Incompatible binaries: refused before anything runs, as `gbx compare` refuses their records.
  const auto differences = gate_differences({{"gbx", {{"environment", sides_[0].description.environment}}}},
                                            {{"gbx", {{"environment", sides_[1].description.environment}}}});
  if (!differences.empty()) {
    err_ << "gbx ab: the binaries are not compatible; these facts differ:\n";
    for (const auto& d : differences)
      err_ << "  " << d.what << "  base: " << d.base << "  candidate: " << d.candidate << "\n";
    if (!options_.allow_incompatible) {
      err_ << "Timings from different hardware or software differ for reasons other than the change under test; "
              "pass --allow-incompatible to compare anyway.\n";
      return 2;
    }
  }
  rows_ = match_rows(listed_, variants_, only_);
  for (int s = 0; s < 2; ++s) {
    for (const auto& name : only_[s])
      err_ << "gbx ab: only the " << sides_[s].role << " lists " << name << ": not compared\n";
  }
  if (rows_.empty()) {
    err_ << "gbx ab: the base and the candidate list no benchmark in common\n";
    return 2;
  }
  return std::nullopt;
}

// Each pair's two workers start in a random order (their own engine, so the block orders stay those
// of the seed): the one started second finds the machine, and its free memory, in another state, and
// base and candidate must stay exchangeable for the signed-rank test's symmetry.
void Run::start_pair(std::int64_t pair) {
  const int first = static_cast<int>(launch_coin_() >> 63);
  pair_memory_->enter(pair);
  start_worker(sides_[first], pair, rows_);
  start_worker(sides_[1 - first], pair, rows_);
  pair_memory_->drop_before(pair);
}

std::optional<int> Run::launch() {
  install_interrupt_handlers();
  const std::string stamp = utc_timestamp(true);
  for (Side& side : sides_) {
    std::vector<std::string> command{side.binary};
    command.insert(command.end(), options_.bench_args.begin(), options_.bench_args.end());
    command.push_back("--gbx_worker=3");
    side.header = RecordHeader{new_run_id(), utc_timestamp(), command, line_.protocol};
    side.path = options_.out_dir + "/" + stamp + "-" + side.header.run_id + "-" + side.role + ".json";
  }
  // Pair 0's workers, then a pilot block of each row on the base: the time of a sample and of a
  // block's fixed cost, from which the samples per block and the plan follow. Pilot blocks are not kept.
  launch_coin_.seed(seed_ ^ 0x9e3779b97f4a7c15ULL);
  const Clock::time_point startup_at = Clock::now();
  start_pair(0);
  startup_ = seconds_since(startup_at);
  for (Side& side : sides_) {
    if (!side.worker->lost_because().empty()) {
      err_ << "gbx ab: " << side.worker->lost_because() << "\n";
      return 2;
    }
  }
  return std::nullopt;
}

void Run::pilot() {
  for (auto& row : rows_) {
    if (!pilot_row(row)) break;
  }
}

// False when a signal stops the pilot.
bool Run::pilot_row(Row& row) {
  const Clock::time_point at = Clock::now();
  WorkerBlock pilot =
      sides_[0].worker->run_block(row.names[0], kPilotSamples, 0, options_.benchmark_timeout_seconds, row.label);
  const double wall = seconds_since(at);
  if (pilot.status == WorkerBlock::Status::interrupted || interrupt_requested()) {
    pilot_signal_ = interrupt_requested() ? interrupt_signal() : SIGINT;
    return false;
  }
  if (pilot.status == WorkerBlock::Status::failed) {
    keep(sides_[0], static_cast<std::size_t>(&row - rows_.data()), row, 0, -1, 0, pilot);
    row.failure = "base: " + pilot.failure;
    row.active = false;
    err_ << "gbx ab: " << row.label << " failed: " << row.failure << "\n";
    if (pilot.worker_lost) start_worker(sides_[0], 0, rows_);
    return true;
  }
  // Skipped here (a CUDA benchmark without a device): no block would hold a sample, so the row says
  // why rather than "no complete block pair".
  if (!pilot.rows.empty() && pilot.rows.front().record && pilot.rows.front().record->skipped) {
    const auto& skipped = *pilot.rows.front().record;
    row.failure = skipped.error.empty() ? "skipped: " + skipped.skip_code : skipped.error;
    row.active = false;
    err_ << "gbx ab: " << row.label << " " << row.failure << "\n";
    return true;
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
  const std::int64_t declared_warmup = line_.protocol.warmup_auto ? 0 : line_.protocol.warmup_runs;
  row.warmup = sample_wall > 0.0 && declared_warmup > 0
                   ? std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(kBlockWarmupSeconds / sample_wall)),
                                              1, declared_warmup)
                   : 0;
  // The pilot paid the setup, the declared warm-up and the accuracy check's run; a held block pays
  // its short warm-up and its samples.
  row.held_warmup_runs = row.warmup > 0 ? row.warmup : declared_warmup;
  row.sample_seconds = sample_wall;
  row.setup_seconds = std::max(0.0, wall - static_cast<double>(declared_warmup + kPilotSamples) * sample_wall);
  row.block_seconds = static_cast<double>(row.held_warmup_runs + row.samples) * sample_wall;
  row.block_pairs = options_.blocks_per_pair;
  row.splits.push_back({0, row.samples, row.block_pairs});
  return true;
}

std::optional<int> Run::plan() {
  cap_ = options_.processes_given ? options_.processes : kMaxPairs;
  first_look_ = std::min<std::int64_t>(5, cap_);
  // The run's design before any look: its options and its planner's floor hold for the whole run.
  design_at_start_ = ab_design(options_.noise_band, options_.equivalence, options_.fdr, cap_, rows_.size(), test_);
  if (pilot_signal_ == 0) {
    if (const auto bad = forecast()) return bad;
  }
  if (!options_.blocks_given && pilot_signal_ == 0)
    plan_first_pairs(rows_, startup_, budget_ - seconds_since(started_), design_at_start_, first_look_);
  std::int64_t fewest = options_.blocks_per_pair;  // pair 0's block pairs, over the rows
  std::int64_t most = 0;
  for (const Row& row : rows_) {
    if (!row.active) continue;
    fewest = most == 0 ? row.block_pairs : std::min(fewest, row.block_pairs);
    most = std::max(most, row.block_pairs);
  }
  const std::string blocks =
      most == 0 || fewest == most ? std::to_string(fewest) : std::to_string(fewest) + "-" + std::to_string(most);
  per_pair_ = pair_seconds(rows_, startup_);
  const double left = budget_ - seconds_since(started_);
  planned_ = std::min<std::int64_t>(cap_, static_cast<std::int64_t>(std::floor(left / per_pair_)));
  if (budget_auto_ && planned_ < std::max(first_look_, kMinPairs)) {  // auto plans one look at least
    planned_ = std::min(cap_, std::max(first_look_, kMinPairs));
    budget_ = seconds_since(started_) + static_cast<double>(planned_) * per_pair_;
  }
  if (pilot_signal_ == 0 && (planned_ < first_look_ || planned_ < kMinPairs)) {
    err_ << "gbx ab: --budget=" << options_.budget << " is too small for one look: the first look needs " << first_look_
         << " worker pairs, about "
         << seconds_text(static_cast<double>(first_look_) * per_pair_ + seconds_since(started_)) << " here ("
         << rows_.size() << " benchmarks x " << blocks << " block pairs); give a larger --budget\n";
    return 2;
  }
  if (pilot_signal_ == 0) say_plan(blocks);
  if (pilot_signal_ == 0) say_forecast();
  return std::nullopt;
}

std::optional<int> Run::forecast() {
  // Without auto, how far the target lies is still worth saying: up to a day.
  constexpr double kFarthestSeconds = 86400.0;
  const double elapsed = seconds_since(started_);
  const double most = budget_auto_ ? budget_ - elapsed : kFarthestSeconds;
  forecasts_ = ab_sides::forecast_rows(rows_, startup_, budget_ - elapsed, design_at_start_, target_mde_, most);
  if (!budget_auto_) return std::nullopt;
  const auto needed = ab_sides::budget_for_target(forecasts_);
  if (!needed) {
    err_ << "gbx ab: --budget=auto: not every row is expected to reach an MDE of " << format_fixed(100 * target_mde_, 1)
         << "% within --max-budget=" << options_.max_budget << "; the run takes all of it\n";
    return std::nullopt;
  }
  budget_ = elapsed + std::ceil(*needed);
  forecasts_ = ab_sides::forecast_rows(rows_, startup_, budget_ - elapsed, design_at_start_, target_mde_, most);
  return std::nullopt;
}

void Run::say_forecast() const {
  const std::string target = format_fixed(100 * target_mde_, 1) + "%";
  for (const ab_sides::RowForecast& f : forecasts_) {
    err_ << "gbx ab: forecast: " << f.label << ": expected MDE "
         << (f.expected_mde ? format_fixed(100 * *f.expected_mde, 1) + "% within the budget"
                            : std::string("none (the budget fits no plan)"))
         << "; " << target << " "
         << (f.seconds_for_target ? "within a budget of about " + seconds_text(*f.seconds_for_target)
                                  : std::string("not within ") + (budget_auto_ ? "--max-budget" : "a day"))
         << "\n";
  }
}

void Run::say_plan(const std::string& blocks) const {
  err_ << "gbx ab: plan: " << rows_.size() << " benchmarks, " << blocks << " interleaved block pairs per worker pair, "
       << (options_.blocks_given ? "" : "at first (planned from each row's pilot block), ") << "blocks of "
       << kMinBlockSamples << "-" << kMaxBlockSamples << " samples (about "
       << format_fixed(1000 * kBlockSamplingSeconds, 0) << " ms of sampling each)"
       << (options_.blocks_given ? "" : ", both planned again after every pair from the measured variance")
       << ", workers " << (cpu_.cpu ? "on CPU " + std::to_string(*cpu_.cpu) : std::string("unpinned"))
       << ", looks after 5, 10, 20, ... worker "
       << "pairs with O'Brien-Fleming-type alpha spending; one worker pair takes about " << seconds_text(per_pair_)
       << ", so " << planned_ << " pairs fit the budget of " << seconds_text(budget_) << " (first look after about "
       << seconds_text(seconds_since(started_) + static_cast<double>(first_look_) * per_pair_) << ")\n";
  // An exact test's least p over few pairs cannot pass Benjamini-Hochberg across many rows: say so
  // before the run spends its budget on rows a lone change could not be called in.
  const auto needed = static_cast<std::int64_t>(plan_least_pairs(design_at_start_));
  if (planned_ >= needed) return;
  err_ << "gbx ab: note: with " << planned_ << " worker pairs the " << to_string(test_)
       << " test cannot call one changed benchmark among " << rows_.size() << " by itself at --fdr "
       << format_fixed(options_.fdr, 2) << " (its least p is 2^(1-pairs); it needs " << needed << " pairs";
  if (planned_ >= cap_)
    err_ << "): give --processes " << needed;
  else
    err_ << ", about " << seconds_text(seconds_since(started_) + static_cast<double>(needed) * per_pair_)
         << " here): give a larger --budget";
  err_ << ", or compare fewer benchmarks\n";
}

AbResult Run::write() {
  for (Side& side : sides_) side.worker.reset();
  RunDesign run;
  run.seed = seed_;
  run.budget_seconds = budget_;
  run.wall_seconds = seconds_since(started_);
  run.cpu = cpu_.cpu;
  run.worker_malloc = worker_malloc_->description();
  run.pair_memory = pair_memory_->description();
  run.pair_test = to_string(test_);
  run.looks = looks_;
  run.only_in_base = only_[0];
  run.only_in_candidate = only_[1];
  run.analysis_failure = analysis_failure_;
  if (!forecasts_.empty()) run.plan = ab_sides::forecast_json(forecasts_, target_mde_, budget_auto_, budget_);
  const nlohmann::json design = design_json(options_, run);
  AbResult result;
  result.paths[0] = sides_[0].path;
  result.paths[1] = sides_[1].path;
  const auto ended = write_side_records(
      [&](int s) {
        return side_record(sides_[s], rows_, design, sides_[1 - s].header.run_id,
                           signal_ != 0 || !analysis_failure_.empty());
      },
      result.paths, signal_, err_);
  if (ended) return ab_ended(*ended);
  if (!analysis_failure_.empty()) return ab_ended(3);
  PairedComparison& comparison = result.comparison;
  comparison.noise_band = options_.noise_band;
  comparison.equivalence = options_.equivalence;
  comparison.design = design;
  comparison.only_in_base = only_[0];
  comparison.only_in_candidate = only_[1];
  for (auto& row : rows_) {
    comparison.rows.push_back(result_from(row.label, row.sequential, design_at_start_.options));
    comparison.rows.back().failure = row.failure;
  }
  // Each side's accuracy checks, read back from its record as written: a faster candidate that computes
  // wrongly fails.
  try {
    add_accuracy(comparison.rows, load_record(result.paths[0]), load_record(result.paths[1]));
  } catch (const std::exception& error) {
    err_ << "gbx ab: the records' accuracy checks could not be read back: " << error.what() << "\n";
    return ab_ended(3);
  }
  return result;
}

}  // namespace interleaved

}  // namespace gbx::tools

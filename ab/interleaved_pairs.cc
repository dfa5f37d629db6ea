// The interleaved run's worker pairs (ab/interleaved_run.h): each pair's blocks, then, between looks,
// the undecided rows split again, and at a look, the sequential analysis that stops the decided rows.
#include <algorithm>
#include <cmath>
#include <csignal>
#include <iostream>

#include "ab/interleaved_run.h"
#include "model/interrupt.h"
#include "text/format.h"

namespace gbx::tools::interleaved {

using namespace ab_sides;

bool Run::any_active() const {
  return std::any_of(rows_.begin(), rows_.end(), [](const Row& r) { return r.active; });
}

std::size_t Run::active_rows() const {
  return static_cast<std::size_t>(std::count_if(rows_.begin(), rows_.end(), [](const Row& r) { return r.active; }));
}

// The undecided rows' next pairs, split anew from their variance as measured so far (analysis_of a
// row), each row with its share of the budget left and of a pair's start-up.
void Run::split_again(std::int64_t next_pair, const SequentialDesign& design_of_run, const AnalysisOf& analysis_of) {
  const auto undecided = static_cast<double>(active_rows());
  if (undecided == 0.0) return;
  const double budget_share = std::max(0.0, budget_ - seconds_since(started_)) / undecided;
  for (auto& row : rows_) {
    if (!row.active) continue;
    const std::optional<PairedAnalysis> analysis = analysis_of(row);
    if (analysis)
      replan(row, *analysis, startup_ / undecided + 2.0 * row.setup_seconds, budget_share, options_.blocks_given,
             next_pair, design_of_run);
  }
}

void Run::run_pairs() {
  coin_.seed(seed_);
  signal_ = pilot_signal_;
  try {
    while (pair_ < planned_ && any_active() && signal_ == 0) {
      const Clock::time_point pair_started = Clock::now();
      const double pair_estimate = pair_seconds(rows_, pair_ == 0 ? 0.0 : startup_);
      run_pair();
      if (interrupt_requested() && signal_ == 0) signal_ = interrupt_signal();
      if (signal_ != 0) break;
      ++pair_;
      if (after_pair(pair_started, pair_estimate)) break;
    }
  } catch (const std::exception& error) {
    analysis_failure_ = error.what();
    err_ << "gbx ab: the analysis failed after " << pair_ << " worker pairs: " << analysis_failure_
         << "; both records keep the blocks that finished\n";
  }
}

void Run::run_pair() {
  if (pair_ > 0) start_pair(pair_);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i].active) order.push_back(i);
  }
  std::shuffle(order.begin(), order.end(), coin_);
  for (std::size_t index : order) {
    run_row(index);
    if (signal_ != 0 || interrupt_requested()) break;
  }
}

void Run::run_row(std::size_t index) {
  Row& row = rows_[index];
  // 0: base first, 1: candidate first. The coin orders the first block pair of each two, the
  // next takes the other order, so that the pair estimate's two orders are balanced.
  int first = 0;
  for (std::int64_t b = 0; b < row.block_pairs && row.active && signal_ == 0; ++b) {
    first = b % 2 == 0 ? static_cast<int>(coin_() >> 63) : 1 - first;
    for (int k = 0; k < 2 && row.active; ++k) {
      if (!run_block(index, b, k, (first + k) % 2)) break;
    }
  }
}

// One block of the row on side s, the k-th of its block pair b. False when a signal stopped it.
bool Run::run_block(std::size_t index, std::int64_t b, int k, int s) {
  Row& row = rows_[index];
  Side& side = sides_[s];
  const Clock::time_point block_started = Clock::now();
  WorkerBlock got =
      side.worker->run_block(row.names[s], row.samples, row.warmup, options_.benchmark_timeout_seconds, row.label);
  if (!got.why_private.empty() && !row.private_memory_told) {
    row.private_memory_told = true;
    err_ << "gbx ab: " << row.label << ": the " << side.role
         << " measures on its own pages, not its pair's: " << got.why_private << "\n";
  }
  if (got.status == WorkerBlock::Status::ok) count_block_time(row, b == 0, seconds_since(block_started));
  if (got.status == WorkerBlock::Status::interrupted) {
    signal_ = got.signal != 0 ? got.signal : SIGINT;
    return false;
  }
  keep(side, index, row, pair_, b, k, got);
  if (got.status == WorkerBlock::Status::failed) {
    row.failure = side.role + ": " + got.failure;
    row.active = false;
    err_ << "gbx ab: " << row.label << " failed: " << row.failure << "\n";
    if (got.worker_lost) start_worker(side, pair_, rows_);  // the rest go on in a fresh worker
  }
  return true;
}

bool Run::after_pair(Clock::time_point pair_started, double pair_estimate) {
  const double elapsed = seconds_since(started_);
  if (pair_estimate > 0.0) slowdown_ = std::max(1.0, seconds_since(pair_started) / pair_estimate);
  per_pair_ = slowdown_ * pair_seconds(rows_, startup_);
  // The pairs planned are spent, but not the budget (the plan at the start saw each row's first split,
  // and the costs measured since may be lower): the maximum grows, as it does at a look, before this
  // pair is weighed as a look, so that the looks stay 5, 10, 20, ... and the last.
  if (pair_ >= planned_ && pair_ < cap_ && elapsed + per_pair_ <= budget_) {
    const auto more = static_cast<std::int64_t>(std::floor((budget_ - elapsed) / per_pair_));
    planned_ = std::min(cap_, pair_ + std::max<std::int64_t>(1, more));
  }
  const std::vector<std::size_t> schedule = look_schedule(static_cast<std::size_t>(planned_));
  const bool at_look = std::find(schedule.begin(), schedule.end(), static_cast<std::size_t>(pair_)) != schedule.end();
  std::vector<AbBlock> all = sides_[0].blocks;
  all.insert(all.end(), sides_[1].blocks.begin(), sides_[1].blocks.end());
  const SequentialDesign design_of_run =
      ab_design(options_.noise_band, options_.equivalence, options_.fdr, planned_, rows_.size(), test_);
  // Between looks the undecided rows are split again too, from an analysis that decides nothing: a
  // row whose block pairs disagree far more than its pairs (a 64 MiB bandwidth row) gets its many
  // block pairs from its second pair on, not from its sixth.
  if (!at_look && pair_ < planned_) {
    split_again(pair_, design_of_run,
                [&](const Row& row) { return analyze_pairs(worker_pairs(row.label, all), design_of_run.options); });
  }
  per_pair_ = slowdown_ * pair_seconds(rows_, startup_);
  const bool out_of_time = elapsed + per_pair_ > budget_;
  if (!at_look && !out_of_time && pair_ < planned_) return false;
  const bool last = out_of_time || pair_ >= planned_;
  look(all, design_of_run, last);
  return last;
}

// The look (stats/sequential.h): each undecided row's repeated intervals at this look's boundaries of
// the planned pairs; the last look spends what is left.
void Run::look(const std::vector<AbBlock>& all, const SequentialDesign& design_of_run, bool last) {
  std::vector<std::vector<WorkerPairBlocks>> by_row;
  by_row.reserve(rows_.size());
  for (auto& row : rows_) {
    by_row.push_back(worker_pairs(row.label, all));
    if (!row.failure.empty()) row.sequential.stopped = true;
  }
  std::vector<SequentialRow> state;
  state.reserve(rows_.size());
  for (const auto& row : rows_) state.push_back(row.sequential);
  sequential_look(by_row, state, design_of_run, last);
  std::vector<std::string> stopped;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    Row& row = rows_[i];
    row.sequential = state[i];
    if (!row.active) continue;
    row.stopped_at = pair_;
    if (row.sequential.stopped) {
      row.active = false;
      if (decided(row.sequential.decision.verdict)) stopped.push_back(row.label);
    }
  }
  const nlohmann::json futile = last || !options_.futility
                                    ? nlohmann::json::array()
                                    : stop_futile_rows(rows_, startup_, slowdown_, budget_ - seconds_since(started_),
                                                       cap_, design_of_run.options);
  looks_.push_back(
      {{"pairs", pair_},
       {"planned_pairs", planned_},
       {"final", last},
       {"information_fraction", std::min(1.0, last ? 1.0 : static_cast<double>(pair_) / static_cast<double>(planned_))},
       {"elapsed_seconds", seconds_since(started_)},
       {"stopped", stopped},
       {"futile", futile}});
  // What is left of the budget goes to the undecided rows: as many more pairs as fit.
  if (!last) split_again(pair_, design_of_run, [](const Row& row) { return row.sequential.analysis; });
  per_pair_ = slowdown_ * pair_seconds(rows_, startup_);
  const std::int64_t more = static_cast<std::int64_t>(std::floor((budget_ - seconds_since(started_)) / per_pair_));
  if (!last) planned_ = std::min(cap_, std::max(planned_, pair_ + more));
  const std::size_t undecided = active_rows();
  err_ << "gbx ab: look after " << pair_ << " worker pairs (" << seconds_text(seconds_since(started_))
       << "): " << stopped.size() << " decided, "
       << (futile.empty() ? "" : std::to_string(futile.size()) + " stopped as the budget left could not decide them, ")
       << undecided << " undecided"
       << (undecided > 0 && !last ? ", going on to at most " + std::to_string(planned_) + " pairs" : "") << "\n";
}

}  // namespace gbx::tools::interleaved

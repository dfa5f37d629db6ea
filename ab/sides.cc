#include "ab/sides.h"

#include <algorithm>
#include <cmath>
#include <iostream>

#include "ab/forecast.h"
#include "analysis/pareto.h"
#include "model/protocol.h"
#include "stats/statistics.h"
#include "writer/record_finisher.h"

namespace gbx::tools::ab_sides {

namespace {

nlohmann::json splits_section(const std::vector<RowSplit>& splits) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& split : splits)
    out.push_back({{"from_pair", split.from_pair},
                   {"samples_per_block", split.samples},
                   {"block_pairs_per_pair", split.block_pairs}});
  return out;
}

nlohmann::json rows_section(const std::vector<Row>& rows, int side) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    out.push_back({{"name", r.label},
                   {"benchmark", r.names[side]},
                   {"samples_per_block", r.splits.empty() ? r.samples : r.splits.front().samples},
                   {"splits", splits_section(r.splits)},
                   {"warmup_runs_per_block", r.warmup},
                   {"stopped_at_pairs", r.stopped_at},
                   {"difference_critical", r.sequential.difference_critical},
                   {"equivalence_critical", r.sequential.equivalence_critical},
                   {"nominal_alpha", r.sequential.nominal_alpha},
                   {"p_adjusted", r.sequential.adjusted_p},
                   {"stopped_for_futility", r.sequential.futile},
                   {"verdict", r.failure.empty() ? to_string(r.sequential.decision.verdict) : "failed"},
                   {"failure", r.failure.empty() ? nlohmann::json() : nlohmann::json(r.failure)}});
  }
  return out;
}

// What a held block costs beyond its runs (the order to the worker and its reply), as measured so far.
double held_block_fixed_seconds(const Row& row) {
  if (row.blocks_timed == 0) return 0.0;
  return std::max(0.0, (row.blocks_wall_seconds - static_cast<double>(row.block_runs_timed) * row.sample_seconds) /
                           static_cast<double>(row.blocks_timed));
}

}  // namespace

bool replan(Row& row, const PairedAnalysis& analysis, double pair_start_share, double budget_share, bool blocks_fixed,
            std::int64_t next_pair, const SequentialDesign& design) {
  if (analysis.pairs == 0 || row.blocks_timed == 0 || !(row.sample_seconds > 0.0)) return false;
  const double fixed = held_block_fixed_seconds(row);
  const PairedCosts costs{row.sample_seconds, fixed + static_cast<double>(row.held_warmup_runs) * row.sample_seconds,
                          pair_start_share};
  const auto plan = plan_paired(analysis.variance, costs, budget_share, design,
                                static_cast<std::size_t>(std::max<std::int64_t>(0, next_pair)));
  if (!plan) return false;
  // Where the row's share of what is left no longer fits one more pair, the plan's fallback (2 block
  // pairs) would make a pair whose estimate weighs as much in the test as the pairs before it, with a
  // tenth of their block pairs: on a 64 MiB bandwidth row, whose block pairs disagree by 10-20%, such
  // pairs at the end of a run were its largest deviations (scripts/aa-check). Once the pairs suffice
  // for the test across them (plan_least_pairs), the split stays, and the run's clock decides whether
  // another pair runs.
  const bool keep_split = !plan->fits_budget && next_pair >= static_cast<std::int64_t>(plan_least_pairs(design));
  const auto samples = keep_split ? row.samples
                                  : std::clamp<std::int64_t>(static_cast<std::int64_t>(plan->samples_per_block),
                                                             kMinBlockSamples, kMaxBlockSamples);
  const auto block_pairs =
      blocks_fixed || keep_split ? row.block_pairs : static_cast<std::int64_t>(plan->block_pairs_per_pair);
  row.block_seconds = costs.block_warmup_seconds + static_cast<double>(samples) * row.sample_seconds;
  if (samples == row.samples && block_pairs == row.block_pairs) return false;
  row.samples = samples;
  row.block_pairs = block_pairs;
  row.splits.push_back({next_pair, samples, block_pairs});
  return true;
}

namespace {

// One row's share of a worker pair as it is split now: its setup and block pairs on both sides.
double row_pair_seconds(const Row& r) {
  return 2.0 * (r.setup_seconds + static_cast<double>(r.block_pairs) * r.block_seconds);
}

}  // namespace

double pair_seconds(const std::vector<Row>& rows, double startup_seconds) {
  double total = startup_seconds;
  for (const auto& r : rows) {
    if (r.active) total += row_pair_seconds(r);
  }
  return total;
}

bool plan_first_pairs(std::vector<Row>& rows, double startup_seconds, double budget_left,
                      const SequentialDesign& design, std::int64_t least_pairs) {
  const auto active = static_cast<double>(timed_active_rows(rows));
  if (active == 0.0 || !(budget_left > 0.0)) return false;
  std::vector<std::int64_t> pilot_block_pairs;
  pilot_block_pairs.reserve(rows.size());
  for (const Row& row : rows) pilot_block_pairs.push_back(row.block_pairs);
  bool changed = false;
  for (Row& row : rows) {
    if (!row.active || !(row.sample_seconds > 0.0)) continue;
    const auto plan = first_plan(row, startup_seconds, active, budget_left / active, design);
    if (!plan || !plan->fits_budget) continue;
    const auto block_pairs = static_cast<std::int64_t>(plan->block_pairs_per_pair);
    if (block_pairs == row.block_pairs) continue;
    row.block_pairs = block_pairs;
    row.splits.assign(1, RowSplit{0, row.samples, block_pairs});
    changed = true;
  }
  if (changed && std::floor(budget_left / pair_seconds(rows, startup_seconds)) < static_cast<double>(least_pairs)) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      rows[i].block_pairs = pilot_block_pairs[i];
      if (!rows[i].splits.empty()) rows[i].splits.front().block_pairs = pilot_block_pairs[i];
    }
    return false;
  }
  return changed;
}

nlohmann::json stop_futile_rows(std::vector<Row>& rows, double startup_seconds, double slowdown, double budget_left,
                                std::int64_t cap, const PairedOptions& options) {
  nlohmann::json stopped = nlohmann::json::array();
  for (Row& row : rows) {
    if (!row.active || !row.sequential.analysis) continue;
    const auto reachable = reachable_pairs(row.sequential.analysis->pairs, budget_left,
                                           slowdown * (startup_seconds + row_pair_seconds(row)),
                                           static_cast<std::size_t>(std::max<std::int64_t>(cap, 0)));
    if (!reachable || !stop_if_futile(row.sequential, *reachable, options)) continue;
    row.active = false;
    stopped.push_back(
        {{"name", row.label}, {"reachable_pairs", *reachable}, {"chance_to_decide", *row.sequential.chance_to_decide}});
  }
  return stopped;
}

std::vector<Row> match_rows(const std::vector<std::string> (&listed)[2], bool variants,
                            std::vector<std::string> (&only)[2]) {
  std::vector<Row> rows;
  const auto lists = [&](int side, const std::string& name) {
    return std::find(listed[side].begin(), listed[side].end(), name) != listed[side].end();
  };
  if (variants) {
    const std::size_t n = std::min(listed[0].size(), listed[1].size());
    for (std::size_t i = 0; i < n; ++i) {
      Row row;
      row.names[0] = listed[0][i];
      row.names[1] = listed[1][i];
      row.label = listed[0][i] + " vs " + listed[1][i];
      rows.push_back(row);
    }
    for (int s = 0; s < 2; ++s) only[s].assign(listed[s].begin() + static_cast<std::ptrdiff_t>(n), listed[s].end());
    return rows;
  }
  for (const auto& name : listed[0]) {
    if (!lists(1, name)) {
      only[0].push_back(name);
      continue;
    }
    Row row;
    row.label = row.names[0] = row.names[1] = name;
    rows.push_back(row);
  }
  for (const auto& name : listed[1]) {
    if (!lists(0, name)) only[1].push_back(name);
  }
  return rows;
}

nlohmann::json design_json(const AbOptions& options, const RunDesign& run) {
  nlohmann::json design = {
      {"design", "interleaved blocks"},
      {"seed", run.seed},
      {"budget_seconds", run.budget_seconds},
      {"wall_seconds", run.wall_seconds},
      {"blocks_per_pair", options.blocks_per_pair},
      {"cpu", run.cpu ? nlohmann::json(*run.cpu) : nlohmann::json("unpinned")},
      {"block_split", options.blocks_given ? "fixed by --blocks"
                                           : "planned again after every pair from the row's measured variance "
                                             "components (plan_paired, stats/sequential.h): rows.splits"},
      {"setup", "once per worker and benchmark: a worker's later blocks of it reuse the setup, with a short warm-up"},
      {"worker_malloc", run.worker_malloc},
      {"pair_memory", run.pair_memory},
      {"equivalence", options.equivalence},
      {"noise_band", options.noise_band},
      {"pair_test", run.pair_test},
      {"pair_estimate", kPairEstimateWinsorised},
      {"spending", "O'Brien-Fleming-type (Lan-DeMets), repeated confidence intervals (stats/sequential.h)"},
      {"fdr", options.fdr},
      {"looks", run.looks},
      {"only_in_base", run.only_in_base},
      {"only_in_candidate", run.only_in_candidate}};
  if (!run.analysis_failure.empty()) design["analysis_failure"] = run.analysis_failure;
  if (!run.plan.is_null()) design["plan"] = run.plan;
  return design;
}

void count_block_time(Row& row, bool first_of_worker, double wall_seconds) {
  const std::int64_t runs = row.held_warmup_runs + row.samples;
  if (!first_of_worker) {
    row.blocks_wall_seconds += wall_seconds;
    row.blocks_timed += 1;
    row.block_runs_timed += runs;
    return;
  }
  row.setup_walls.push_back(
      std::max(0.0, wall_seconds - held_block_fixed_seconds(row) - static_cast<double>(runs) * row.sample_seconds));
  if (row.setup_walls.size() >= 2) row.setup_seconds = median(row.setup_walls).value_or(row.setup_seconds);
}

void start_worker(Side& side, std::int64_t pair, const std::vector<Row>& rows) {
  side.worker = std::make_unique<Worker>(side.binary, side.args);
  ProcessLaunch launch;
  launch.process = pair;
  launch.pid = side.worker->pid();
  launch.started_utc = utc_timestamp();
  for (const auto& row : rows) {
    if (row.active) launch.order.push_back(row.names[side.role == "base" ? 0 : 1]);
  }
  side.launches.push_back(std::move(launch));
}

void keep(Side& side, std::size_t row_index, const Row& row, std::int64_t pair, std::int64_t block, int order,
          WorkerBlock& got) {
  const int s = side.role == "base" ? 0 : 1;
  ProcessOutcome& outcome = side.outcomes[{row_index, pair}];
  outcome.process = pair;
  outcome.pid = side.worker ? side.worker->pid() : 0;
  if (outcome.started_utc.empty()) outcome.started_utc = utc_timestamp();
  if (got.status == WorkerBlock::Status::failed) {
    outcome.failure = got.failure;
    outcome.rows.clear();
    return;
  }
  for (auto& parsed : got.rows) {
    if (!parsed.record) continue;
    AbBlock kept{row.label,
                 row.names[s],
                 side.role,
                 pair,
                 block,
                 order,
                 outcome.pid,
                 got.start_ns,
                 got.end_ns,
                 parsed.record->measurement.samples,
                 got.shared_bytes,
                 got.private_bytes};
    side.blocks.push_back(kept);
    if (outcome.rows.empty()) {
      outcome.rows.push_back(std::move(parsed));
    } else if (outcome.rows.front().record) {
      auto& samples = outcome.rows.front().record->measurement.samples;
      samples.insert(samples.end(), kept.samples.begin(), kept.samples.end());
    }
    break;  // one repetition per block
  }
}

nlohmann::json side_record(Side& side, const std::vector<Row>& rows, const nlohmann::json& design,
                           const std::string& partner, bool interrupted) {
  const int s = side.role == "base" ? 0 : 1;
  ProcessRunResults results;
  std::int64_t pairs = 0;
  for (const auto& [key, outcome] : side.outcomes) pairs = std::max(pairs, key.second + 1);
  results.processes = std::max<std::int64_t>(pairs, 1);
  results.order_seed = design.value("seed", std::uint64_t{0});
  results.launches = side.launches;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    results.names.push_back(rows[i].names[s]);
    results.outcomes.emplace_back();
    for (auto& [key, outcome] : side.outcomes) {
      if (key.first == i) results.outcomes.back().push_back(outcome);
    }
  }
  AnalysisOptions analysis;
  const Peak cpu = peak_from_json(side.description.environment["peaks"]["cpu"]);
  const Peak gpu = peak_from_json(side.description.environment["peaks"]["gpu"]);
  analysis.cpu_peak = &cpu;
  analysis.gpu_peak = &gpu;
  const auto merged = merge_process_rows(results, analysis);
  side.header.interrupted = interrupted;
  side.header.environment = side.description.environment;
  nlohmann::json ab = design;
  ab["role"] = side.role;
  ab["partner_run_id"] = partner;
  ab["rows"] = rows_section(rows, s);
  ab["blocks"] = nlohmann::json::array();
  for (const auto& b : side.blocks) ab["blocks"].push_back(block_json(b));
  side.header.sections["ab"] = std::move(ab);
  nlohmann::json record = build_process_record(results, merged, side.description.context, side.header);
  finish_record(record, interrupted, std::cerr, "gbx ab");
  return record;
}

}  // namespace gbx::tools::ab_sides

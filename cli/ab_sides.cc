#include "cli/ab_sides.h"

#include <algorithm>
#include <iostream>

#include "analysis/pareto.h"
#include "model/protocol.h"
#include "writer/record_finisher.h"

namespace gbx::tools::ab_sides {

namespace {

nlohmann::json rows_section(const std::vector<Row>& rows, int side) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    out.push_back({{"name", r.label},
                   {"benchmark", r.names[side]},
                   {"samples_per_block", r.samples},
                   {"warmup_runs_per_block", r.warmup},
                   {"stopped_at_pairs", r.stopped_at},
                   {"difference_critical", r.sequential.difference_critical},
                   {"equivalence_critical", r.sequential.equivalence_critical},
                   {"nominal_alpha", r.sequential.nominal_alpha},
                   {"p_adjusted", r.sequential.adjusted_p},
                   {"verdict", r.failure.empty() ? to_string(r.sequential.decision.verdict) : "failed"},
                   {"failure", r.failure.empty() ? nlohmann::json() : nlohmann::json(r.failure)}});
  }
  return out;
}

}  // namespace

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
    AbBlock kept{row.label, row.names[s], side.role,    pair,       block,
                 order,     outcome.pid,  got.start_ns, got.end_ns, parsed.record->measurement.samples};
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

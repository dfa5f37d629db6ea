#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/ab_paired.h"
#include "processes/process_runner.h"
#include "processes/worker_client.h"
#include "stats/sequential.h"
#include "writer/process_merge.h"

// The state of `gbx ab`'s interleaved run (cli/ab_interleaved.cc): its rows, its two sides with their
// workers and kept blocks, and each side's record built from them.
namespace gbx::tools::ab_sides {

constexpr std::int64_t kMinBlockSamples = 5;

// One row of the comparison: a benchmark both sides list, or a base variant and a candidate variant.
struct Row {
  std::string label;
  std::string names[2];  // base's, candidate's
  std::int64_t samples = kMinBlockSamples;
  std::int64_t warmup = 0;     // warm-up runs of a block (0: the declared)
  double setup_seconds = 0.0;  // a worker's first block of the row: its setup and full warm-up
  double block_seconds = 0.0;  // one block after it, both sides alike
  bool active = true;
  std::string failure;
  SequentialRow sequential;  // its state across looks (stats/sequential.h)
  std::int64_t stopped_at = 0;
};

struct Side {
  std::string role;
  std::string binary;
  std::vector<std::string> args;
  BinaryDescription description;
  std::unique_ptr<Worker> worker;
  std::vector<AbBlock> blocks;
  std::map<std::pair<std::size_t, std::int64_t>, ProcessOutcome> outcomes;  // (row, pair)
  std::vector<ProcessLaunch> launches;
  RecordHeader header;
  std::string path;
};

// A fresh worker for the side, its launch kept for the record (pair, pid, the rows' order).
void start_worker(Side& side, std::int64_t pair, const std::vector<Row>& rows);

// Keeps a block: its samples in the side's record (one process outcome per row and pair) and in
// gbx.ab.blocks; a failed block marks the outcome failed.
void keep(Side& side, std::size_t row_index, const Row& row, std::int64_t pair, std::int64_t block, int order,
          WorkerBlock& got);

// The side's finished record: its blocks merged per pair as process outcomes, gbx.ab (the design, the
// rows, the blocks, the partner's run id) beside them.
nlohmann::json side_record(Side& side, const std::vector<Row>& rows, const nlohmann::json& design,
                           const std::string& partner, bool interrupted);

}  // namespace gbx::tools::ab_sides

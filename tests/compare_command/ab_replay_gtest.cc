// gbx compare of two `gbx ab` records replays the pairs' estimates with the one estimate gbx has,
// winsorised to the row's pooled bounds (gbx.ab.pair_estimate names it); a record that names another
// estimate, or none, is read all the same. The JSON rows give the bounds and how many block pairs were
// pulled in to them.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ab/paired.h"
#include "cli/ab_output.h"
#include "record/record_reader.h"

namespace {

using gbx::tools::AbBlock;

// 4 worker pairs of 2 block pairs, each d_j within 0.2% of 0, but one of pair 3 at 0.2 (a block 22%
// off). Each block has 3 samples, all the same.
std::vector<AbBlock> blocks() {
  const std::vector<std::vector<double>> d = {{0.001, -0.001}, {0.0, 0.002}, {-0.002, 0.001}, {0.2, 0.0}};
  std::vector<AbBlock> out;
  for (std::size_t pair = 0; pair < d.size(); ++pair) {
    for (std::size_t block = 0; block < d[pair].size(); ++block) {
      for (const char* side : {"base", "candidate"}) {
        AbBlock b;
        b.row = b.name = "reduce/naive/n:4096";
        b.side = side;
        b.pair = static_cast<std::int64_t>(pair);
        b.block = static_cast<std::int64_t>(block);
        b.order = (b.side == "candidate") == (block % 2 == 0) ? 0 : 1;
        const double seconds = b.side == "base" ? 1e-3 : 1e-3 * std::exp(d[pair][block]);
        b.samples = {seconds, seconds, seconds};
        out.push_back(b);
      }
    }
  }
  return out;
}

gbx::LoadedRecord record(const char* pair_estimate) {
  nlohmann::json ab = {{"noise_band", 0.005},
                       {"equivalence", 0.02},
                       {"fdr", 0.05},
                       {"pair_test", "signed-rank"},
                       {"rows", {{{"name", "reduce/naive/n:4096"}, {"failure", nullptr}}}},
                       {"looks", {{{"pairs", 4}, {"planned_pairs", 4}, {"final", true}}}},
                       {"blocks", nlohmann::json::array()}};
  for (const AbBlock& b : blocks()) ab["blocks"].push_back(gbx::tools::block_json(b));
  if (pair_estimate != nullptr) ab["pair_estimate"] = pair_estimate;
  gbx::LoadedRecord loaded;
  loaded.json = {{"gbx", {{"ab", ab}}}};
  loaded.has_gbx = true;
  return loaded;
}

TEST(AbReplay, ARecordThatSaysWinsorisedIsReplayedWinsorised) {
  const gbx::LoadedRecord r = record(gbx::kPairEstimateWinsorised);
  const auto c = gbx::tools::paired_from_records(r, r);
  ASSERT_EQ(c.rows.size(), 1u);
  ASSERT_EQ(c.rows[0].pair_log_ratios.size(), 4u);
  // Pair 3's 0.2 pulled in to the bound (0 + log 1.005 here): its x_k about 0.0025, not 0.1.
  EXPECT_LT(c.rows[0].pair_log_ratios[3], 0.003);
  EXPECT_EQ(c.rows[0].winsorised_block_pairs, 1u);
  ASSERT_TRUE(c.rows[0].block_ratio_bounds);
  EXPECT_EQ(c.design["pair_estimate"], gbx::kPairEstimateWinsorised);

  std::ostringstream out;
  gbx::tools::print_paired(out, "json", c, "base.json", "candidate.json");
  const auto row = nlohmann::json::parse(out.str())["rows"][0];
  EXPECT_EQ(row["winsorised_block_pairs"], 1);
  ASSERT_TRUE(row["block_ratio_bounds"].is_object());
  EXPECT_NEAR(row["block_ratio_bounds"]["upper"].get<double>(), std::exp(c.rows[0].block_ratio_bounds->upper), 1e-12);
}

TEST(AbReplay, ARecordFromBeforeWinsorisingIsReadAndReplayedWithTheOneEstimate) {
  // Records made before the pooled bounds carry "order-balanced-median", or no field at all.
  const gbx::LoadedRecord winsorised = record(gbx::kPairEstimateWinsorised);
  const auto expected = gbx::tools::paired_from_records(winsorised, winsorised);
  for (const char* old_estimate : {"order-balanced-median", static_cast<const char*>(nullptr)}) {
    const gbx::LoadedRecord r = record(old_estimate);
    const auto c = gbx::tools::paired_from_records(r, r);
    ASSERT_EQ(c.rows.size(), 1u);
    EXPECT_EQ(c.rows[0].pair_log_ratios, expected.rows[0].pair_log_ratios);
    EXPECT_EQ(c.rows[0].winsorised_block_pairs, 1u);
    EXPECT_TRUE(c.rows[0].block_ratio_bounds);
    EXPECT_EQ(c.rows[0].verdict, expected.rows[0].verdict);
    EXPECT_EQ(c.design["pair_estimate"], gbx::kPairEstimateWinsorised);
  }
}

}  // namespace

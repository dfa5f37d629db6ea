// gbx ab's futility stop at a look (ab_sides::stop_futile_rows over stats/sequential.h's
// stop_if_futile): the pairs a row could reach with the whole budget left at its own cost, the rows it
// stops and what the look records of them; the sentence and JSON of a row so stopped; and gbx compare's
// replay of a recorded futile stop.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ab/paired.h"
#include "ab/sides.h"
#include "cli/ab_output.h"

namespace {

using gbx::tools::ab_sides::Row;
using gbx::tools::ab_sides::stop_futile_rows;

// An undecided row after a look at 5 pairs: its analysis's se and log ratio, and its costs per worker
// pair alone (the start-up, then its setup and block pairs on both sides).
Row undecided(const std::string& label, double se, double log_ratio, double setup, std::int64_t block_pairs,
              double block_seconds) {
  Row row;
  row.label = label;
  row.setup_seconds = setup;
  row.block_pairs = block_pairs;
  row.block_seconds = block_seconds;
  gbx::PairedAnalysis analysis;
  analysis.pairs = 5;
  analysis.replicated = true;
  analysis.se_log_ratio = se;
  analysis.ratio = std::exp(log_ratio);
  row.sequential.analysis = analysis;
  row.sequential.decision.verdict = gbx::Verdict::inconclusive;
  return row;
}

// Noisy: pairs 6.7% apart (se 3%), 2 s a pair alone (0.2 + 2 (0.5 + 4 x 0.1)). Quiet: se 1%, 0.26 s.
std::vector<Row> two_rows() {
  return {undecided("triad/n:16777216", 0.03, 0.01, 0.5, 4, 0.1), undecided("triad/n:65536", 0.01, 0.0, 0.01, 2, 0.01)};
}

TEST(AbFutility, StopsTheRowThatTheBudgetLeftCannotDecide) {
  std::vector<Row> rows = two_rows();
  // 14 s left: the noisy row reaches 5 + 7 = 12 pairs, a chance of 0.55% (stats' hand value); the quiet
  // one 5 + 53 = 58.
  const nlohmann::json stopped = stop_futile_rows(rows, 0.2, 1.0, 14.0, 160, gbx::PairedOptions{});
  ASSERT_EQ(stopped.size(), 1u) << stopped.dump();
  EXPECT_EQ(stopped[0]["name"], "triad/n:16777216");
  EXPECT_EQ(stopped[0]["reachable_pairs"], 12);
  EXPECT_NEAR(stopped[0]["chance_to_decide"].get<double>(), 0.005547, 2e-5);
  EXPECT_FALSE(rows[0].active);
  EXPECT_TRUE(rows[0].sequential.stopped && rows[0].sequential.futile);
  // The live run's row says what a replay of its record says: the pairs reachable and the chance.
  const gbx::tools::PairedResult live =
      gbx::tools::result_from(rows[0].label, rows[0].sequential, gbx::PairedOptions{});
  EXPECT_TRUE(live.futile);
  EXPECT_EQ(live.reachable_pairs, 12u);
  ASSERT_TRUE(live.chance_to_decide);
  EXPECT_NEAR(*live.chance_to_decide, 0.005547, 2e-5);
  // And how many pairs would bring its MDE to the 2% margin: se 3% over 5 pairs is an sd of 6.7%, so
  // about (1.96 + 1.28)^2 (0.067 / (log 1.02 - log 1.005))^2 = 215, a few more for the t quantiles.
  ASSERT_TRUE(live.pairs_for_margin);
  EXPECT_GE(*live.pairs_for_margin, 215u);
  EXPECT_LE(*live.pairs_for_margin, 222u);
  EXPECT_TRUE(rows[1].active);
  EXPECT_FALSE(rows[1].sequential.stopped);
}

TEST(AbFutility, ALargerBudgetKeepsItAndTheCapOrASlowdownStopsIt) {
  std::vector<Row> rows = two_rows();
  // 200 s: 105 pairs reachable, a chance of about 0.43.
  EXPECT_TRUE(stop_futile_rows(rows, 0.2, 1.0, 200.0, 160, gbx::PairedOptions{}).empty());
  EXPECT_TRUE(rows[0].active);
  // --processes 8: no more than 8 pairs, whatever the budget.
  const nlohmann::json capped = stop_futile_rows(rows, 0.2, 1.0, 200.0, 8, gbx::PairedOptions{});
  ASSERT_EQ(capped.size(), 1u);
  EXPECT_EQ(capped[0]["reachable_pairs"], 8);
  // A machine running pairs at twice their estimate: 28 s buys the 7 pairs that 14 s did.
  std::vector<Row> slowed = two_rows();
  const nlohmann::json slow = stop_futile_rows(slowed, 0.2, 2.0, 28.0, 160, gbx::PairedOptions{});
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0]["reachable_pairs"], 12);
}

TEST(AbFutility, LeavesDecidedInactiveAndUnanalysedRowsAlone) {
  std::vector<Row> rows = two_rows();
  rows[0].sequential.decision.verdict = gbx::Verdict::same;
  rows[1] = undecided("other", 0.03, 0.01, 0.5, 4, 0.1);
  rows[1].active = false;
  Row unanalysed = undecided("unanalysed", 0.03, 0.01, 0.5, 4, 0.1);
  unanalysed.sequential.analysis.reset();
  rows.push_back(unanalysed);
  EXPECT_TRUE(stop_futile_rows(rows, 0.2, 1.0, 14.0, 160, gbx::PairedOptions{}).empty());
  for (const Row& row : rows) EXPECT_FALSE(row.sequential.futile) << row.label;
}

gbx::tools::PairedResult futile_row() {
  gbx::tools::PairedResult r;
  r.name = "bandwidth/triad/n:16777216";
  r.pair_log_ratios = {0.05, -0.08, 0.02, 0.11, -0.06};
  r.block_pairs = 40;
  r.ratio = 1.006;
  r.lower = 0.93;
  r.upper = 1.09;
  r.equivalence_lower = 0.95;
  r.equivalence_upper = 1.07;
  r.mde = 0.121;
  r.verdict = gbx::Verdict::inconclusive;
  r.futile = true;
  r.chance_to_decide = 0.02;
  r.reachable_pairs = 12;
  return r;
}

TEST(AbFutility, TheRowSaysWhyItStoppedAndTheJsonMarksIt) {
  EXPECT_EQ(gbx::tools::paired_sentence(futile_row(), 0.005, 0.02),
            "bandwidth/triad/n:16777216: inconclusive: stopped after 5 worker pairs, as even the whole budget left "
            "(12 pairs) had a 2.0% chance of deciding it; a change of 12.1% or more would have been seen; ratio "
            "1.006 [0.930, 1.090], 5 worker pairs, 40 interleaved block pairs");
  gbx::tools::PairedComparison c;
  c.rows.push_back(futile_row());
  c.rows.push_back(futile_row());
  c.rows.back().futile = false;
  std::ostringstream out;
  gbx::tools::print_paired(out, "json", c, "base.json", "candidate.json");
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_TRUE(j["rows"][0]["stopped_for_futility"].get<bool>());
  EXPECT_DOUBLE_EQ(j["rows"][0]["chance_to_decide"].get<double>(), 0.02);
  EXPECT_FALSE(j["rows"][1]["stopped_for_futility"].get<bool>());
  EXPECT_TRUE(j["rows"][1]["chance_to_decide"].is_null());
}

TEST(AbFutility, ARowWhoseNoiseIsBetweenProcessesSaysSoInWordsAndInTheJson) {
  gbx::tools::PairedResult r = futile_row();
  r.variance.within_block = 0.0001;
  r.variance.between_blocks = 0.0004;
  r.variance.between_pairs = 0.0036;
  r.variance.from_blocks = 0.000016;
  EXPECT_EQ(gbx::tools::paired_sentence(r, 0.005, 0.02),
            "bandwidth/triad/n:16777216: inconclusive: stopped after 5 worker pairs, as even the whole budget left "
            "(12 pairs) had a 2.0% chance of deciding it; a change of 12.1% or more would have been seen; ratio "
            "1.006 [0.930, 1.090], 5 worker pairs, 40 interleaved block pairs; the noise is between processes: the "
            "pairs' ratios vary by 6.0% (sd) beyond the 0.4% their blocks explain; more worker pairs, from a larger "
            "--budget, would narrow it, longer pairs would not");
  r.futile = false;
  EXPECT_NE(gbx::tools::paired_sentence(r, 0.005, 0.02).find("; the noise is between processes"), std::string::npos);
  r.pairs_for_margin = 180;
  EXPECT_NE(gbx::tools::paired_sentence(r, 0.005, 0.02)
                .find("inconclusive: a change of 12.1% or more would have been seen (about 180 worker pairs would "
                      "bring it to 2.0%); ratio 1.006"),
            std::string::npos)
      << gbx::tools::paired_sentence(r, 0.005, 0.02);
  gbx::tools::PairedComparison c;
  c.rows.push_back(r);
  c.rows.push_back(futile_row());
  std::ostringstream out;
  gbx::tools::print_paired(out, "json", c, "base.json", "candidate.json");
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_NEAR(j["rows"][0]["noise"]["between_pairs_sd"].get<double>(), 0.06, 1e-12);
  EXPECT_NEAR(j["rows"][0]["noise"]["from_blocks_sd"].get<double>(), 0.004, 1e-12);
  EXPECT_NEAR(j["rows"][0]["noise"]["within_block_sd"].get<double>(), 0.01, 1e-12);
  EXPECT_NEAR(j["rows"][0]["noise"]["between_blocks_sd"].get<double>(), 0.02, 1e-12);
  EXPECT_TRUE(j["rows"][1]["noise"]["between_pairs_sd"].is_null()) << "one pair, or none measured";
  EXPECT_EQ(j["rows"][0]["pairs_for_margin"], 180);
  EXPECT_TRUE(j["rows"][1]["pairs_for_margin"].is_null());
}

// Blocks of one row: `pairs` worker pairs of 2 block pairs, the candidate's blocks exp(d) of the base's.
void add_blocks(std::vector<gbx::tools::AbBlock>& out, const std::string& row, const std::vector<double>& d) {
  for (std::size_t pair = 0; pair < d.size(); ++pair) {
    for (std::int64_t block = 0; block < 2; ++block) {
      for (const char* side : {"base", "candidate"}) {
        gbx::tools::AbBlock b;
        b.row = b.name = row;
        b.side = side;
        b.pair = static_cast<std::int64_t>(pair);
        b.block = block;
        b.order = (b.side == "candidate") == (block % 2 == 0) ? 0 : 1;
        const double seconds = b.side == "base" ? 1e-3 : 1e-3 * std::exp(d[pair] + 0.0005 * static_cast<double>(block));
        b.samples = {seconds, seconds, seconds};
        out.push_back(b);
      }
    }
  }
}

TEST(AbFutility, CompareReplaysARecordedStop) {
  // The noisy row ran 5 pairs and stopped for futility at the first look; the quiet one ran on to 8.
  std::vector<gbx::tools::AbBlock> blocks;
  add_blocks(blocks, "noisy", {0.08, -0.07, 0.1, -0.09, 0.02});
  add_blocks(blocks, "quiet", {0.001, -0.001, 0.0, 0.002, -0.002, 0.001, 0.0, -0.001});
  gbx::tools::RecordedLook first{5, 20, false, {{"noisy", 12, 0.03}}};
  gbx::tools::RecordedLook last{8, 8, true, {}};
  const auto rows = gbx::tools::replay_looks({"noisy", "quiet"}, {"", ""}, blocks, {first, last}, 0.005, 0.02, 0.05,
                                             gbx::PairTest::weighted);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].futile);
  EXPECT_EQ(rows[0].reachable_pairs, 12u);
  ASSERT_TRUE(rows[0].chance_to_decide);
  EXPECT_DOUBLE_EQ(*rows[0].chance_to_decide, 0.03);
  EXPECT_EQ(rows[0].verdict, gbx::Verdict::inconclusive);
  EXPECT_EQ(rows[0].pair_log_ratios.size(), 5u);
  EXPECT_NE(gbx::tools::paired_sentence(rows[0], 0.005, 0.02).find("stopped after 5 worker pairs"), std::string::npos);
  EXPECT_FALSE(rows[1].futile);
  EXPECT_EQ(rows[1].pair_log_ratios.size(), 8u);
  // Without the recorded stop the same blocks replay as an ordinary undecided row.
  first.futile.clear();
  const auto plain = gbx::tools::replay_looks({"noisy", "quiet"}, {"", ""}, blocks, {first, last}, 0.005, 0.02, 0.05,
                                              gbx::PairTest::weighted);
  EXPECT_FALSE(plain[0].futile);
  EXPECT_EQ(plain[0].verdict, gbx::Verdict::inconclusive);
}

}  // namespace

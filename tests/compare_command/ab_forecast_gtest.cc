// What gbx ab says the budget buys before it runs (ab/forecast.h): each row's expected MDE at the
// budget, the least budget at which it reaches a target (checked against the plan it comes from, to the
// bisection's second), the run's budget for every row (the largest), and the record's plan section.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ab/forecast.h"
#include "ab/sides.h"

namespace {

using gbx::tools::ab_sides::budget_for_target;
using gbx::tools::ab_sides::first_plan;
using gbx::tools::ab_sides::forecast_json;
using gbx::tools::ab_sides::forecast_rows;
using gbx::tools::ab_sides::Row;
using gbx::tools::ab_sides::RowForecast;

// A row as the pilot leaves it: 1 ms samples, 20 per block, 1 warm-up run, 50 ms of setup, and the
// given noise within a block (the log samples' robust spread).
Row piloted_row(const char* label, double within_block) {
  Row row;
  row.label = label;
  row.samples = 20;
  row.block_pairs = 2;
  row.held_warmup_runs = 1;
  row.sample_seconds = 0.001;
  row.setup_seconds = 0.05;
  row.pilot_within_block = within_block;
  return row;
}

std::optional<double> mde_at(const Row& row, double rows, double run_budget) {
  const auto plan = first_plan(row, 0.2, rows, run_budget / rows, gbx::SequentialDesign{});
  if (!plan || !plan->fits_budget) return std::nullopt;
  return plan->expected_mde;
}

TEST(AbForecast, AMoreGenerousBudgetNeverExpectsALargerMde) {
  const std::vector<Row> rows{piloted_row("quiet", 0.01), piloted_row("noisy", 0.2)};
  const gbx::SequentialDesign design;
  const auto small = forecast_rows(rows, 0.2, 30.0, design, 0.02, 3600.0);
  const auto large = forecast_rows(rows, 0.2, 300.0, design, 0.02, 3600.0);
  ASSERT_EQ(small.size(), 2U);
  ASSERT_EQ(large.size(), 2U);
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(small[i].expected_mde && large[i].expected_mde) << small[i].label;
    EXPECT_LE(*large[i].expected_mde, *small[i].expected_mde) << small[i].label;
  }
  // The noisier row expects the larger MDE at the same budget.
  EXPECT_GT(*small[1].expected_mde, *small[0].expected_mde);
}

TEST(AbForecast, TheBudgetForTheTargetIsTheLeastThatReachesIt) {
  const std::vector<Row> rows{piloted_row("quiet", 0.01), piloted_row("noisy", 0.2)};
  const auto forecasts = forecast_rows(rows, 0.2, 60.0, gbx::SequentialDesign{}, 0.01, 3600.0);
  ASSERT_EQ(forecasts.size(), 2U);
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(forecasts[i].seconds_for_target) << forecasts[i].label;
    const double seconds = *forecasts[i].seconds_for_target;
    const auto at = mde_at(rows[i], 2.0, seconds);
    ASSERT_TRUE(at);
    EXPECT_LE(*at, 0.01) << forecasts[i].label;
    const auto before = mde_at(rows[i], 2.0, seconds - 1.5);
    EXPECT_TRUE(!before || *before > 0.01) << forecasts[i].label << " reached it 1.5 s sooner";
  }
  EXPECT_GT(*forecasts[1].seconds_for_target, *forecasts[0].seconds_for_target);
  ASSERT_TRUE(budget_for_target(forecasts));
  EXPECT_DOUBLE_EQ(*budget_for_target(forecasts), *forecasts[1].seconds_for_target);
}

TEST(AbForecast, ARowThatCannotReachTheTargetWithinTheMostLeavesTheRunWithoutABudget) {
  const std::vector<Row> rows{piloted_row("quiet", 0.01), piloted_row("wild", 2.0)};
  const auto forecasts = forecast_rows(rows, 0.2, 60.0, gbx::SequentialDesign{}, 0.005, 20.0);
  ASSERT_EQ(forecasts.size(), 2U);
  EXPECT_FALSE(forecasts[1].seconds_for_target);
  EXPECT_FALSE(budget_for_target(forecasts));
  EXPECT_FALSE(budget_for_target({}));
}

TEST(AbForecast, RowsWithoutATimedPilotAreNotForecast) {
  std::vector<Row> rows{piloted_row("timed", 0.01), piloted_row("failed", 0.01), piloted_row("untimed", 0.01)};
  rows[1].active = false;
  rows[2].sample_seconds = 0.0;
  const auto forecasts = forecast_rows(rows, 0.2, 60.0, gbx::SequentialDesign{}, 0.02, 600.0);
  ASSERT_EQ(forecasts.size(), 1U);
  EXPECT_EQ(forecasts[0].label, "timed");
}

TEST(AbForecast, TheRecordsPlanHoldsNullsNotNaNs) {
  std::vector<RowForecast> forecasts(2);
  forecasts[0].label = "a";
  forecasts[0].expected_mde = 0.01;
  forecasts[0].seconds_for_target = 12.0;
  forecasts[1].label = "b";
  forecasts[1].expected_mde = std::nan("");
  const auto plan = forecast_json(forecasts, 0.02, true, 30.0);
  EXPECT_EQ(plan["budget"], "auto");
  EXPECT_EQ(plan["target_mde"], 0.02);
  EXPECT_EQ(plan["rows"][0]["seconds_for_target"], 12.0);
  EXPECT_TRUE(plan["rows"][1]["expected_mde"].is_null());
  EXPECT_TRUE(plan["rows"][1]["seconds_for_target"].is_null());
  EXPECT_EQ(plan.dump().find("NaN"), std::string::npos);
}

}  // namespace

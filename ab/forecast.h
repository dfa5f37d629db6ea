#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ab/sides.h"
#include "stats/sequential.h"

// What the budget buys, said before the run spends it (issue: a budget planned from the suite): for each
// row, from its pilot and the assumed spreads between blocks and between pairs (the plan of pair 0,
// plan_paired in stats/sequential.h), the MDE the budget is expected to reach, and the budget at which
// it would reach a target (the equivalence margin, or --target-mde).
namespace gbx::tools::ab_sides {

struct RowForecast {
  std::string label;
  std::optional<double> expected_mde;  // at the budget given; absent where no plan fits
  // The whole run's budget (from now) at which this row's expected MDE reaches the target; absent
  // where even `most_seconds` does not.
  std::optional<double> seconds_for_target;
};

// The rows a plan is made for: active, with a timed pilot.
std::size_t timed_active_rows(const std::vector<Row>& rows);

// The plan of a row's first pairs, its budget share being `row_budget`: its pilot's noise within a
// block, the assumed spreads, its costs (its share of a pair's start-up, its setup on both sides).
std::optional<PairedPlan> first_plan(const Row& row, double startup_seconds, double active_rows, double row_budget,
                                     const SequentialDesign& design);

// Each active row with a timed pilot: its forecast at `budget_left` (shared equally by the active rows,
// as the run shares it), and the least budget up to `most_seconds` at which its expected MDE is within
// `target`.
std::vector<RowForecast> forecast_rows(const std::vector<Row>& rows, double startup_seconds, double budget_left,
                                       const SequentialDesign& design, double target, double most_seconds);

// The budget that brings every forecast row's expected MDE within the target: the largest of theirs.
// Absent where a row cannot within `most_seconds`, or nothing was forecast.
std::optional<double> budget_for_target(const std::vector<RowForecast>& forecasts);

// gbx.ab.plan: the target and, per row, the forecast (the reached MDE is in the comparison's rows).
nlohmann::json forecast_json(const std::vector<RowForecast>& forecasts, double target, bool budget_auto,
                             double budget_seconds);

}  // namespace gbx::tools::ab_sides

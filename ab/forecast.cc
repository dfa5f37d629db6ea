#include "ab/forecast.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gbx::tools::ab_sides {

namespace {

std::optional<double> expected_mde_at(const Row& row, double startup_seconds, double active, double run_budget,
                                      const SequentialDesign& design) {
  const auto plan = first_plan(row, startup_seconds, active, run_budget / active, design);
  if (!plan || !plan->fits_budget) return std::nullopt;
  return plan->expected_mde;
}

// The least run budget in (0, most] whose plan expects an MDE within target: the MDE falls as the
// budget grows (more pairs, or more block pairs each), so a bisection finds it to a second.
std::optional<double> least_budget_for(const Row& row, double startup_seconds, double active, double target,
                                       double most_seconds, const SequentialDesign& design) {
  const auto at_most = expected_mde_at(row, startup_seconds, active, most_seconds, design);
  if (!at_most || *at_most > target) return std::nullopt;
  double low = 0.0;
  double high = most_seconds;
  while (high - low > 1.0) {
    const double middle = 0.5 * (low + high);
    const auto mde = expected_mde_at(row, startup_seconds, active, middle, design);
    (mde && *mde <= target ? high : low) = middle;
  }
  return high;
}

}  // namespace

std::size_t timed_active_rows(const std::vector<Row>& rows) {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.active && r.sample_seconds > 0.0; }));
}

std::optional<PairedPlan> first_plan(const Row& row, double startup_seconds, double active_rows, double row_budget,
                                     const SequentialDesign& design) {
  PairedVariance assumed;
  assumed.within_block = row.pilot_within_block * row.pilot_within_block;
  assumed.between_blocks = std::log1p(kAssumedBetweenBlocksCv * kAssumedBetweenBlocksCv);
  const PairedCosts costs{row.sample_seconds, static_cast<double>(row.held_warmup_runs) * row.sample_seconds,
                          startup_seconds / active_rows + 2.0 * row.setup_seconds};
  // The pilot's samples per block stay: a block of several samples measures the noise within a block,
  // which the plans after pair 0 need (a block of one reads none).
  return plan_paired(assumed, costs, row_budget, design, 0,
                     static_cast<std::size_t>(std::max<std::int64_t>(1, row.samples)));
}

std::vector<RowForecast> forecast_rows(const std::vector<Row>& rows, double startup_seconds, double budget_left,
                                       const SequentialDesign& design, double target, double most_seconds) {
  std::vector<RowForecast> forecasts;
  const auto active = static_cast<double>(timed_active_rows(rows));
  if (active == 0.0) return forecasts;
  for (const Row& row : rows) {
    if (!row.active || !(row.sample_seconds > 0.0)) continue;
    RowForecast forecast;
    forecast.label = row.label;
    if (budget_left > 0.0) {
      const auto plan = first_plan(row, startup_seconds, active, budget_left / active, design);
      if (plan && plan->fits_budget) forecast.expected_mde = plan->expected_mde;
    }
    forecast.seconds_for_target = least_budget_for(row, startup_seconds, active, target, most_seconds, design);
    forecasts.push_back(forecast);
  }
  return forecasts;
}

std::optional<double> budget_for_target(const std::vector<RowForecast>& forecasts) {
  if (forecasts.empty()) return std::nullopt;
  double most = 0.0;
  for (const RowForecast& f : forecasts) {
    if (!f.seconds_for_target) return std::nullopt;
    most = std::max(most, *f.seconds_for_target);
  }
  return most;
}

nlohmann::json forecast_json(const std::vector<RowForecast>& forecasts, double target, bool budget_auto,
                             double budget_seconds) {
  nlohmann::json rows = nlohmann::json::array();
  for (const RowForecast& f : forecasts) {
    nlohmann::json row = {{"name", f.label}};
    row["expected_mde"] = f.expected_mde && std::isfinite(*f.expected_mde) ? nlohmann::json(*f.expected_mde) : nullptr;
    row["seconds_for_target"] = f.seconds_for_target ? nlohmann::json(*f.seconds_for_target) : nullptr;
    rows.push_back(row);
  }
  return {{"target_mde", target},
          {"budget", budget_auto ? "auto" : "given"},
          {"budget_seconds", budget_seconds},
          {"method",
           "pair 0's plan (plan_paired) from each row's pilot block and the assumed spreads between "
           "blocks and between worker pairs; seconds_for_target: the run's budget from the plan on"},
          {"rows", rows}};
}

}  // namespace gbx::tools::ab_sides

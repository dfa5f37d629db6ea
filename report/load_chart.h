#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// The load sweep's charts and summary (docs/load.md) from a parsed gbx record: the report hooks them
// into its page. Each reads the benchmark entries' gbx.load sections and nothing else; entries
// without one are left out. Vega-Lite v5 specifications, self-contained (data inlined).

namespace gbx {

// One point of a variant's latency-throughput curve: a closed-loop level ("c=2") or an open-loop one
// ("0.8x"), with its throughput, median and p99 latency (seconds) and the p99's interval.
struct LoadPoint {
  std::string variant;
  std::string loop;         // "closed" or "open"
  std::string label;        // "c=2" or "0.8x"
  double throughput = 0.0;  // achieved, per second
  double median_seconds = 0.0;
  double p99_seconds = 0.0;
  double p99_lower = 0.0;
  double p99_upper = 0.0;
  double offered_per_second = 0.0;  // open loop only
  bool saturated = false;
};

// The problems (gbx.problem) that have a load sweep, in record order.
std::vector<std::string> load_problems(const nlohmann::json& record);

// Every point of the problem's sweeps, variant by variant in record order (the first repetition of
// each variant). Levels without a throughput or a p99 are left out.
std::vector<LoadPoint> load_points(const nlohmann::json& record, const std::string& problem);

// p99 latency (log scale, with its interval) against achieved throughput: one colour per variant, a
// solid curve for the closed loop and a dashed one for the open loop, each point's shape its level; the latency
// bound (when the sweeps recorded one) is a horizontal rule. Null when the problem has no sweep.
nlohmann::json latency_throughput_chart(const nlohmann::json& record, const std::string& problem);

// p99 latency (log scale) against offered rate, open-loop levels only, one curve per variant,
// saturated levels hollow, the bound drawn. Null when the problem has no open-loop level.
nlohmann::json p99_offered_load_chart(const nlohmann::json& record, const std::string& problem);

// The knee of each variant: the level with the most throughput per unit of median latency
// (Kleinrock's power, lambda / W; saturated levels excluded), with its throughput and latencies, the
// saturation point and the throughput at the bound. A Markdown section ("## Load" and one table per
// problem); empty when no entry has a sweep.
std::string load_knee_markdown(const nlohmann::json& record);

}  // namespace gbx

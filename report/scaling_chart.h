#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// The scaling charts of a swept benchmark (the short form's axes, gbx.axes): median latency and
// throughput against one numeric axis, one chart per problem, one line per variant. Read from a parsed
// record; entries without axes are left out. Vega-Lite v5 specifications, self-contained.

namespace gbx {

struct ScalingChart {
  std::string problem;  // the family and the other problem axes, e.g. "copy T=float"
  std::string axis;     // the numeric axis along x, e.g. "n"
  std::size_t points = 0;
  nlohmann::json spec;
};

// One chart per (family, numeric problem axis, values of the other problem axes) with two values of
// the axis or more, in record order.
std::vector<ScalingChart> scaling_charts(const nlohmann::json& record);

}  // namespace gbx

#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "model/axis_value.h"
#include "model/measurement.h"

namespace gbx {

// gbx.axes: {"n": 1048576, "T": "float"}, numbers as numbers; null when the benchmark has no axes.
nlohmann::json axes_record_json(const std::vector<detail::AxisValue>& axes);
// gbx.variant_axes: the names of the axes that pick the implementation; null when none.
nlohmann::json variant_axes_json(const std::vector<detail::AxisValue>& axes);

// The child-to-parent wire keeps each value's kind, so that the parent writes what the child would.
nlohmann::json axes_wire_json(const std::vector<detail::AxisValue>& axes);
std::vector<detail::AxisValue> axes_from_wire(const nlohmann::json& wire);

// gbx.measurement.rotation under --gbx_cache=rotate: copies, bytes per run, the cache they defeat.
nlohmann::json rotation_json(const detail::Measurement& m);
void rotation_from_json(const nlohmann::json& rotation, detail::Measurement& m);

}  // namespace gbx

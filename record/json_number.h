#pragma once

#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

namespace gbx {

// A number as the record holds it: JSON has no NaN or infinity, so such a value, or none, is null.
inline nlohmann::json finite_or_null(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
}
inline nlohmann::json finite_or_null(const std::optional<double>& value) {
  return value ? finite_or_null(*value) : nlohmann::json();
}

}  // namespace gbx

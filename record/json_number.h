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

// A number read back, or `fallback` when the key is absent, null or not a number (NaN for "unknown").
inline double number_or(const nlohmann::json& j, const char* key, double fallback) {
  const auto found = j.find(key);
  return found != j.end() && found->is_number() ? found->get<double>() : fallback;
}

// A value read back, absent when the key is absent or null.
template <typename T>
std::optional<T> optional_from(const nlohmann::json& j, const char* key) {
  const auto found = j.find(key);
  if (found == j.end() || found->is_null()) return std::nullopt;
  return found->get<T>();
}

}  // namespace gbx

#pragma once

#include <nlohmann/json.hpp>

#include "extensions/observations.h"

namespace gbx {

// An entry's `energy` ({"gpu": ..., "cpu": ...}) and `clocks` objects; null when nothing was observed.
nlohmann::json energy_json(const Observations& observed);
nlohmann::json clocks_json(const Observations& observed);

// The inverse, for records passed from child processes; absent keys give absent observations.
Observations observations_from_json(const nlohmann::json& energy, const nlohmann::json& clocks);

}  // namespace gbx

#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "model/observations.h"

namespace gbx {

// An entry's `energy` ({"gpu": ..., "cpu": ...}) and `clocks` objects; null when nothing was observed.
nlohmann::json energy_json(const Observations& observed);
nlohmann::json clocks_json(const Observations& observed);

// The inverse, for records passed from child processes; absent keys give absent observations.
Observations observations_from_json(const nlohmann::json& energy, const nlohmann::json& clocks);

// One benchmark's observations in several processes, as one: energy summed (joules per run = all
// joules / all runs, its interval a t interval over the processes' own figures when two or more
// have one), clock ranges joined, reasons and counts added.
Observations merge_observations(const std::vector<const Observations*>& parts);

}  // namespace gbx

#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "model/observations.h"

namespace gbx {

// An entry's `energy` ({"gpu": ..., "cpu": ...}) and `clocks` objects; null when nothing was observed.
nlohmann::json energy_json(const detail::Observations& observed);
nlohmann::json clocks_json(const detail::Observations& observed);

// The inverse, for records passed from child processes; absent keys give absent observations.
detail::Observations observations_from_json(const nlohmann::json& energy, const nlohmann::json& clocks);

// One benchmark's observations in several processes, as one: energy summed (joules per run = all
// joules / all runs, its interval a t interval over the processes' own figures when two or more
// have one), clock ranges joined, reasons and counts added.
detail::Observations merge_observations(const std::vector<const detail::Observations*>& parts);

}  // namespace gbx

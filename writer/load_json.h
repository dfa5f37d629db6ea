#pragma once

#include <nlohmann/json.hpp>

#include "model/load_result.h"

namespace gbx {

// A benchmark entry's gbx.load object (docs/load.md, docs/json-format.md), and back: the children
// of --gbx_processes hand their sweeps to the parent this way. Non-finite numbers are null.
nlohmann::json load_json(const detail::LoadResult& load);
// Throws nlohmann::json::exception when a required key is missing or of the wrong type.
detail::LoadResult load_from_json(const nlohmann::json& j);

}  // namespace gbx

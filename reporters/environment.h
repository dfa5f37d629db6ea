#pragma once

#include <nlohmann/json.hpp>

namespace gbx {

// What the record says about where it was measured. Minimal for now: the host, the build, and
// which CUDA device (if any) the runtime offered. A value that cannot be read is null, with the
// reason beside it under "<key>_unavailable".
nlohmann::json capture_environment();

}  // namespace gbx

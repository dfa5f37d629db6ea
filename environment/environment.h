#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gbx {

// What the record says about where it was measured: host, build, source, dependencies, process and
// GPUs (docs/json-format.md, "The environment"). A value that cannot be read is null, with the
// reason beside it under "<key>_unavailable"; nothing is guessed.

// The values that can change during a run, read before it: the load average and, per GPU, NVML's
// clocks, temperature and throttle reasons.
struct EnvironmentSnapshot {
  nlohmann::json load_average;  // {"1m", "5m", "15m"}, or null with "load_average_unavailable"
  nlohmann::json nvml;          // read_nvml() (environment/nvml.h)
};

EnvironmentSnapshot capture_start();

// The full capture. `at_start` fills the "at start" halves; `argv` is the process's command line
// (empty: argv is null, with the reason).
nlohmann::json capture_environment(const EnvironmentSnapshot& at_start, const std::vector<std::string>& argv = {});

// As above, without a start snapshot: the "at start" values are null, with the reason.
nlohmann::json capture_environment();

// SHA-256 (hex) over the sorted lines "name=version\n" of the dependencies that have a version;
// those without one (nullopt) are left out, so a dependency that appears or goes changes it too.
std::string dependency_lock_hash(const std::map<std::string, std::optional<std::string>>& versions);

}  // namespace gbx

#pragma once

// The parts of the environment capture, one file per concern: host.cc (the machine and the
// process), versions.cc (gbx's build and the libraries loaded), source.cc (the program's build and
// source, gbx's source, and the dependency lock), gpus.cc (CUDA devices and NVML); environment.cc puts
// them together. Internal to gbx_environment.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "environment/environment.h"

namespace gbx::environment_detail {

using Json = nlohmann::json;

// A value, or why there is none.
struct Maybe {
  std::optional<std::string> value;
  std::string reason;
};

inline void put(Json& object, const std::string& key, const Json& value, const std::string& reason) {
  object[key] = value;
  if (value.is_null()) object[key + "_unavailable"] = reason.empty() ? "unknown" : reason;
}

inline void put(Json& object, const std::string& key, const Maybe& maybe) {
  put(object, key, maybe.value ? Json(*maybe.value) : Json(nullptr), maybe.reason);
}

inline Maybe from_macro(const char* value, const char* reason) {
  if (value[0] != '\0') return {value, ""};
  return {std::nullopt, reason};
}

// host.cc
// The first line of a small file (sysfs, procfs), trimmed; or why not.
Maybe read_line(const std::string& path);
// The value after "key<tabs>: " in /proc/cpuinfo or /proc/meminfo style files, first match.
Maybe read_field(const std::string& path, const std::string& key);
Json load_average_now(std::string& reason);
Json host_json(const EnvironmentSnapshot* start);
Json process_json(const std::vector<std::string>& argv);

// versions.cc
struct OpenBlas {
  Maybe version, core, config;
};
struct CudaVersions {
  Maybe runtime, driver;
};
// Looked up in the process, not linked: OpenBLAS is present when the binary links gbx_kernels.
OpenBlas openblas();
// cuBLAS's version from the library the process would load, without linking it.
Maybe cublas_version();
CudaVersions cuda_versions();
Json build_json(const Maybe& openblas_version, const OpenBlas& blas, const Maybe& cublas);

// source.cc
// The program's own build facts (build_type, flags, optimization, optimized, assertions, compiler,
// compiler_path, cmake) into `build`: registered by the program, or null with the reason.
void put_program_build(Json& build);
// The program's git answer, gbx's own under "gbx", and the dependency lock over `build`'s versions.
Json source_json(const Json& build, const CudaVersions& cuda);

// gpus.cc
Json gpus_json(Json& environment, const Json& nvml_start, const Json& nvml_end, const CudaVersions& versions);
Json cuda_json(const CudaVersions& versions);

}  // namespace gbx::environment_detail

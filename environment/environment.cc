#include "environment/environment.h"

#include <string>
#include <vector>

#include "environment/environment_detail.h"
#include "environment/nvml.h"

namespace gbx {
namespace {

using environment_detail::CudaVersions;
using environment_detail::Json;
using environment_detail::Maybe;
using environment_detail::OpenBlas;

Json capture(const EnvironmentSnapshot* start, const std::vector<std::string>& argv) {
  Json environment;
  environment["host"] = environment_detail::host_json(start);
  const OpenBlas blas = environment_detail::openblas();
  const Maybe cublas = environment_detail::cublas_version();
  const CudaVersions versions = environment_detail::cuda_versions();
  environment["build"] = environment_detail::build_json(blas.version, blas, cublas);
  environment["source"] = environment_detail::source_json(environment["build"], versions);
  environment["process"] = environment_detail::process_json(argv);
  environment["cuda"] = environment_detail::cuda_json(versions);
  const Json nvml_end = read_nvml();
  const Json nvml_start =
      start ? start->nvml
            : Json{{"devices", nullptr},
                   {"devices_unavailable", "no start snapshot: the caller did not call capture_start()"}};
  if (nvml_end["devices"].is_object()) {
    environment["nvml"] = {{"device_count", nvml_end["devices"].size()}};
  } else {
    environment_detail::put(environment, "nvml", nullptr, nvml_end["devices_unavailable"].get<std::string>());
  }
  environment["gpus"] = environment_detail::gpus_json(environment, nvml_start, nvml_end, versions);
  return environment;
}

}  // namespace

EnvironmentSnapshot capture_start() {
  EnvironmentSnapshot snapshot;
  std::string reason;
  snapshot.load_average = environment_detail::load_average_now(reason);
  snapshot.nvml = read_nvml();
  return snapshot;
}

nlohmann::json capture_environment(const EnvironmentSnapshot& at_start, const std::vector<std::string>& argv) {
  return capture(&at_start, argv);
}

nlohmann::json capture_environment() { return capture(nullptr, {}); }

}  // namespace gbx

// Where the code came from: git's commit, branch and dirty state at build time, and the dependency
// lock, a hash over the versions of what the binary was built with and loaded.
#include <map>
#include <optional>
#include <string>

#include "environment/environment_detail.h"
#include "environment/git_facts.h"
#include "record/checksum.h"

namespace gbx {

std::string dependency_lock_hash(const std::map<std::string, std::optional<std::string>>& versions) {
  std::string lines;  // std::map iterates in sorted order
  for (const auto& [name, version] : versions) {
    if (version) lines += name + "=" + *version + "\n";
  }
  return sha256_hex(lines);
}

namespace environment_detail {

Json source_json(const Json& build, const CudaVersions& cuda) {
  Json source;
  put(source, "commit", from_macro(git_facts.commit.data(), git_facts.commit_unavailable.data()));
  put(source, "dirty", git_facts.dirty < 0 ? Json(nullptr) : Json(git_facts.dirty == 1),
      git_facts.dirty_unavailable.data());
  put(source, "branch", from_macro(git_facts.branch.data(), git_facts.branch_unavailable.data()));
  std::map<std::string, std::optional<std::string>> versions;
  for (const char* key :
       {"compiler", "cmake", "cuda_toolkit", "google_benchmark", "google_benchmark_library_build_type", "boost",
        "nlohmann_json", "openssl", "openblas", "openblas_core", "cublas"}) {
    const Json& value = build[key];
    versions[key] = value.is_string() ? std::optional<std::string>(value.get<std::string>()) : std::nullopt;
  }
  versions["cuda_runtime"] = cuda.runtime.value;
  versions["cuda_driver"] = cuda.driver.value;
  source["dependency_lock_sha256"] = dependency_lock_hash(versions);
  Json hashed = Json::array();
  for (const auto& [name, version] : versions) {
    if (version) hashed.push_back(name + "=" + *version);
  }
  source["dependency_lock"] = hashed;
  return source;
}

}  // namespace environment_detail
}  // namespace gbx

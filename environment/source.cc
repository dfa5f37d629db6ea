// Where the code came from. The program's own build and source: the facts that gbx_program_facts.cc,
// compiled inside the program, registers (<gbx/detail/program_facts.h>). gbx's own, apart, under
// build.gbx and source.gbx. And the dependency lock, a hash over the versions of what the binary was
// built with and loaded.
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "environment/environment_detail.h"
#include "environment/git_facts.h"
#include "record/checksum.h"

namespace gbx {

namespace detail {
namespace {
// Null until the program registers: constant-initialised, so no static initialiser can run before it.
const ProgramFacts* registered = nullptr;
}  // namespace

void register_program_facts(const ProgramFacts* facts) noexcept { registered = facts; }
const ProgramFacts* program_facts() noexcept { return registered; }
}  // namespace detail

std::string dependency_lock_hash(const std::map<std::string, std::optional<std::string>>& versions) {
  std::string lines;  // std::map iterates in sorted order
  for (const auto& [name, version] : versions) {
    if (version) lines += name + "=" + *version + "\n";
  }
  return sha256_hex(lines);
}

namespace environment_detail {
namespace {

const char* const kNoProgramFacts =
    "this program did not register its build facts: it was not linked with gbx::main or gbx::gbx (gbx_main in "
    "gbx's tree), which compile them into it";

void put_git(Json& source, const detail::GitFacts& git) {
  put(source, "commit", from_macro(git.commit.data(), git.commit_unavailable.data()));
  put(source, "dirty", git.dirty < 0 ? Json(nullptr) : Json(git.dirty == 1), git.dirty_unavailable.data());
  put(source, "branch", from_macro(git.branch.data(), git.branch_unavailable.data()));
}

// The -O level the program was compiled at: -O0 without __OPTIMIZE__, else the last -O in its flags.
Maybe optimization_level(const detail::ProgramFacts& facts) {
  if (facts.optimized == 0) return {"-O0", ""};
  std::istringstream words(facts.flags.data());
  std::string word, last;
  while (words >> word) {
    if (word.rfind("-O", 0) == 0) last = word;
  }
  if (!last.empty() && last != "-O0") return {last, ""};
  return {std::nullopt,
          "the program was compiled with optimisation, but its CMAKE_CXX_FLAGS name no -O level (it was set "
          "elsewhere, such as target_compile_options)"};
}

}  // namespace

void put_program_build(Json& build) {
  const detail::ProgramFacts* facts = detail::program_facts();
  if (!facts) {
    for (const char* key :
         {"build_type", "flags", "optimization", "optimized", "assertions", "compiler", "compiler_path", "cmake"}) {
      put(build, key, nullptr, kNoProgramFacts);
    }
    return;
  }
  put(build, "build_type", from_macro(facts->build_type.data(), "CMAKE_BUILD_TYPE was empty"));
  build["flags"] = facts->flags.data();
  put(build, "optimization", optimization_level(*facts));
  build["optimized"] = facts->optimized == 1;
  build["assertions"] = facts->assertions == 1;
  put(build, "compiler", from_macro(facts->compiler.data(), "CMake did not identify the compiler"));
  put(build, "compiler_path", from_macro(facts->compiler_path.data(), "CMake did not name the compiler"));
  put(build, "cmake", from_macro(facts->cmake.data(), "CMake did not give its version"));
}

Json source_json(const Json& build, const CudaVersions& cuda) {
  Json source;
  if (const detail::ProgramFacts* facts = detail::program_facts()) {
    put_git(source, facts->source);
  } else {
    for (const char* key : {"commit", "dirty", "branch"}) put(source, key, nullptr, kNoProgramFacts);
  }
  Json gbx_source;
  put_git(gbx_source, git_facts);
  source["gbx"] = gbx_source;
  std::map<std::string, std::optional<std::string>> versions;
  for (const char* key :
       {"compiler", "cmake", "cuda_toolkit", "google_benchmark", "google_benchmark_library_build_type", "boost",
        "nlohmann_json", "openssl", "openblas", "openblas_core", "cublas"}) {
    const Json& value = build[key];
    versions[key] = value.is_string() ? std::optional<std::string>(value.get<std::string>()) : std::nullopt;
  }
  const Json& gbx_version = build["gbx"]["version"];
  versions["gbx"] = gbx_version.is_string() ? std::optional<std::string>(gbx_version.get<std::string>()) : std::nullopt;
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

#include "environment/environment.h"

#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <boost/version.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "environment/build_info.h"
#include "record/checksum.h"
#include "environment/git_info.h"
#include "environment/nvml.h"

#ifdef GBX_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "extensions/cuda_device.h"
#endif

extern char** environ;

namespace gbx {

namespace {

using Json = nlohmann::json;

// A value, or why there is none.
struct Maybe {
  std::optional<std::string> value;
  std::string reason;
};

void put(Json& object, const std::string& key, const Json& value, const std::string& reason) {
  object[key] = value;
  if (value.is_null()) object[key + "_unavailable"] = reason.empty() ? "unknown" : reason;
}

void put(Json& object, const std::string& key, const Maybe& maybe) {
  put(object, key, maybe.value ? Json(*maybe.value) : Json(nullptr), maybe.reason);
}

Maybe from_macro(const char* value, const char* reason) {
  if (value[0] != '\0') return {value, ""};
  return {std::nullopt, reason};
}

// The first line of a small file (sysfs, procfs), trimmed.
Maybe read_line(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {std::nullopt, path + ": " + std::strerror(errno)};
  std::string line;
  if (!std::getline(in, line)) return {std::nullopt, path + ": empty"};
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return {line, ""};
}

// The value after "key<tabs>: " in /proc/cpuinfo or /proc/meminfo style files, first match.
Maybe read_field(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  if (!in) return {std::nullopt, path + ": " + std::strerror(errno)};
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name != key) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    return {value, ""};
  }
  return {std::nullopt, path + " has no \"" + key + "\" line"};
}

Json load_average_now(std::string& reason) {
  double load[3] = {};
  if (::getloadavg(load, 3) != 3) {
    reason = "getloadavg failed";
    return nullptr;
  }
  return {{"1m", load[0]}, {"5m", load[1]}, {"15m", load[2]}};
}

// Physical cores as distinct (package, core) pairs over the online CPUs' sysfs topology, else
// over /proc/cpuinfo's "physical id" and "core id".
Json physical_cores(std::string& reason) {
  std::set<std::pair<std::string, std::string>> cores;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/devices/system/cpu", error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 4 || name.compare(0, 3, "cpu") != 0 ||
        name.find_first_not_of("0123456789", 3) != std::string::npos) {
      continue;
    }
    const Maybe package = read_line(entry.path().string() + "/topology/physical_package_id");
    const Maybe core = read_line(entry.path().string() + "/topology/core_id");
    if (package.value && core.value) cores.emplace(*package.value, *core.value);
  }
  if (!cores.empty()) return cores.size();
  std::ifstream in("/proc/cpuinfo");
  std::string line, package;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (line.rfind("physical id", 0) == 0) package = value;
    if (line.rfind("core id", 0) == 0) cores.emplace(package, value);
  }
  if (!cores.empty()) return cores.size();
  reason = "neither /sys/devices/system/cpu/cpu*/topology nor /proc/cpuinfo names the cores";
  return nullptr;
}

Json host_json(const EnvironmentSnapshot* start) {
  Json host;
  char name[256] = {};
  const bool named = ::gethostname(name, sizeof name - 1) == 0;
  put(host, "hostname", named ? Json(name) : Json(nullptr), named ? "" : std::strerror(errno));
  utsname uts{};
  const bool have_uname = ::uname(&uts) == 0;
  put(host, "os", have_uname ? Json(uts.sysname) : Json(nullptr), "uname failed");
  put(host, "kernel", have_uname ? Json(uts.release) : Json(nullptr), "uname failed");
  put(host, "kernel_build", have_uname ? Json(uts.version) : Json(nullptr), "uname failed");
  put(host, "machine", have_uname ? Json(uts.machine) : Json(nullptr), "uname failed");
  Maybe distribution = read_field("/etc/os-release", "PRETTY_NAME");
  if (!distribution.value) {
    // os-release is KEY=value, not KEY: value.
    std::ifstream in("/etc/os-release");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
      std::string value = line.substr(12);
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      distribution = {value, ""};
    }
  }
  put(host, "distribution", distribution);
  put(host, "cpu_model", read_field("/proc/cpuinfo", "model name"));
  const unsigned logical = std::thread::hardware_concurrency();
  put(host, "logical_cpus", logical ? Json(logical) : Json(nullptr), "the C++ runtime could not count the CPUs");
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const bool have_affinity = ::sched_getaffinity(0, sizeof allowed, &allowed) == 0;
  put(host, "allowed_cpus", have_affinity ? Json(static_cast<unsigned>(CPU_COUNT(&allowed))) : Json(nullptr),
      std::strerror(errno));
  std::string reason;
  const Json cores = physical_cores(reason);
  put(host, "physical_cores", cores, reason);
  const Maybe smt_active = read_line("/sys/devices/system/cpu/smt/active");
  if (smt_active.value) {
    host["smt"] = *smt_active.value == "1";
  } else if (logical && cores.is_number()) {
    host["smt"] = logical > cores.get<unsigned>();
  } else {
    put(host, "smt", nullptr, smt_active.reason + "; and the cores could not be counted");
  }
  put(host, "governor", read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
  const Maybe no_turbo = read_line("/sys/devices/system/cpu/intel_pstate/no_turbo");
  const Maybe boost = read_line("/sys/devices/system/cpu/cpufreq/boost");
  if (no_turbo.value) {
    host["turbo"] = *no_turbo.value == "0";
  } else if (boost.value) {
    host["turbo"] = *boost.value == "1";
  } else {
    put(host, "turbo", nullptr, no_turbo.reason + "; " + boost.reason);
  }
  const Maybe mem = read_field("/proc/meminfo", "MemTotal");
  if (mem.value) {
    // "N kB", where the kernel's kB is 1024 bytes.
    host["memory_total_bytes"] = std::strtoull(mem.value->c_str(), nullptr, 10) * 1024ULL;
  } else {
    put(host, "memory_total_bytes", nullptr, mem.reason);
  }
  if (start) {
    put(host, "load_average_start", start->load_average, "getloadavg failed");
  } else {
    put(host, "load_average_start", nullptr, "no start snapshot: the caller did not call capture_start()");
  }
  std::string load_reason;
  const Json load_now = load_average_now(load_reason);
  put(host, "load_average_end", load_now, load_reason);
  return host;
}

// Google Benchmark keeps its own build type private; its JSON reporter prints it in the context.
Maybe benchmark_library_build_type() {
  try {
    using Context = benchmark::BenchmarkReporter::Context;
    // The JSON reporter prints executable_name, null until benchmark::Initialize().
    const char* const saved = Context::executable_name;
    if (!saved) Context::executable_name = "gbx";
    std::ostringstream out, err;
    benchmark::JSONReporter reporter;
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&err);
    reporter.ReportContext(Context());
    Context::executable_name = saved;
    // Read by hand rather than with <regex>: GCC 12 warns falsely (-Wmaybe-uninitialized) inside
    // <regex> under -fsanitize=address, and the context is not a whole JSON document to parse.
    const std::string text = out.str();
    const std::string key = "\"library_build_type\"";
    std::size_t at = text.find(key);
    if (at != std::string::npos) {
      at = text.find_first_not_of(" \t\r\n", at + key.size());
      if (at != std::string::npos && text[at] == ':') at = text.find_first_not_of(" \t\r\n", at + 1);
      const std::size_t end = at != std::string::npos && text[at] == '"' ? text.find('"', at + 1) : std::string::npos;
      if (end != std::string::npos) return {text.substr(at + 1, end - at - 1), ""};
    }
    return {std::nullopt, "this Google Benchmark's JSON context has no library_build_type"};
  } catch (const std::exception& error) {
    return {std::nullopt, std::string("Google Benchmark's JSON context failed: ") + error.what()};
  }
}

struct OpenBlas {
  Maybe version, core, config;
};

// Looked up in the process, not linked: OpenBLAS is present when the binary links gbx_kernels.
OpenBlas openblas() {
  using Text = const char* (*)();
  const auto config = reinterpret_cast<Text>(::dlsym(RTLD_DEFAULT, "openblas_get_config"));
  const auto core = reinterpret_cast<Text>(::dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const std::string absent = "OpenBLAS is not loaded in this process (it comes with gbx_kernels)";
  OpenBlas out{{std::nullopt, absent}, {std::nullopt, absent}, {std::nullopt, absent}};
  if (config && config()) {
    // "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64": the version is the 2nd word.
    const std::string text = config();
    out.config = {text, ""};
    std::istringstream words(text);
    std::string first, second;
    words >> first >> second;
    if (first == "OpenBLAS" && !second.empty()) {
      out.version = {second, ""};
    } else {
      out.version = {std::nullopt, "openblas_get_config() names no version: " + text};
    }
  }
  if (core && core()) out.core = {std::string(core()), ""};
  return out;
}

// cuBLAS's version from the library the process would load, without linking it.
Maybe cublas_version() {
  using GetProperty = int (*)(int, int*);  // cublasGetProperty(libraryPropertyType, int*)
  std::string why;
  for (const char* name : {"libcublas.so.13", "libcublas.so"}) {
    void* library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char* error = ::dlerror();
      why += std::string(why.empty() ? "" : "; ") + (error ? error : name);
      continue;
    }
    const auto get = reinterpret_cast<GetProperty>(::dlsym(library, "cublasGetProperty"));
    int major = 0, minor = 0, patch = 0;  // MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2
    if (get && get(0, &major) == 0 && get(1, &minor) == 0 && get(2, &patch) == 0) {
      return {std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch), ""};
    }
    return {std::nullopt, std::string(name) + ": cublasGetProperty failed or is missing"};
  }
  return {std::nullopt, "cannot load cuBLAS: " + why};
}

// Unused when built without CUDA.
[[maybe_unused]] std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

struct CudaVersions {
  Maybe runtime, driver;
};

CudaVersions cuda_versions() {
#ifdef GBX_HAVE_CUDA
  CudaVersions out;
  int runtime = 0, driver = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) {
    out.runtime = {cuda_version_text(runtime), ""};
  } else {
    out.runtime = {std::nullopt, "cudaRuntimeGetVersion failed"};
  }
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) {
    out.driver = {cuda_version_text(driver), ""};
  } else {
    out.driver = {std::nullopt, "no CUDA driver is installed"};
  }
  return out;
#else
  return {{std::nullopt, "gbx was built without CUDA"}, {std::nullopt, "gbx was built without CUDA"}};
#endif
}

Json build_json(const Maybe& openblas_version, const OpenBlas& blas, const Maybe& cublas) {
  Json build;
  put(build, "compiler", from_macro(GBX_BUILD_CXX_COMPILER, "CMake did not identify the compiler"));
  put(build, "compiler_path", from_macro(GBX_BUILD_CXX_COMPILER_PATH, "CMake did not name the compiler"));
  build["flags"] = GBX_BUILD_CXX_FLAGS;
  put(build, "build_type", from_macro(GBX_BUILD_TYPE, "CMAKE_BUILD_TYPE was empty"));
  build["cmake"] = GBX_BUILD_CMAKE_VERSION;
#ifdef NDEBUG
  build["assertions"] = false;
#else
  build["assertions"] = true;
#endif
#ifdef GBX_HAVE_CUDA
  build["cuda"] = true;
#else
  build["cuda"] = false;
#endif
  put(build, "cuda_toolkit", from_macro(GBX_BUILD_CUDA_VERSION, "gbx was built without CUDA"));
  put(build, "google_benchmark", from_macro(GBX_BUILD_BENCHMARK_VERSION, "find_package(benchmark) gave no version"));
  put(build, "google_benchmark_library_build_type", benchmark_library_build_type());
  build["boost"] = std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
                   std::to_string(BOOST_VERSION % 100);
  build["nlohmann_json"] = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                           std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                           std::to_string(NLOHMANN_JSON_VERSION_PATCH);
  build["openssl"] = OpenSSL_version(OPENSSL_VERSION);
  put(build, "openblas", openblas_version);
  put(build, "openblas_core", blas.core);
  put(build, "openblas_config", blas.config);
  put(build, "cublas", cublas);
  return build;
}

Json source_json(const Json& build, const CudaVersions& cuda) {
  Json source;
  put(source, "commit", from_macro(GBX_GIT_COMMIT, GBX_GIT_COMMIT_UNAVAILABLE));
  put(source, "dirty", GBX_GIT_DIRTY < 0 ? Json(nullptr) : Json(GBX_GIT_DIRTY == 1), GBX_GIT_DIRTY_UNAVAILABLE);
  put(source, "branch", from_macro(GBX_GIT_BRANCH, GBX_GIT_BRANCH_UNAVAILABLE));
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

Json process_json(const std::vector<std::string>& argv) {
  Json process;
  process["pid"] = static_cast<long long>(::getpid());
  put(process, "argv", argv.empty() ? Json(nullptr) : Json(argv), "the caller did not pass argv");
  // Variables that change results; null means unset.
  Json variables;
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "CUDA_LAUNCH_BLOCKING", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                           "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "GOMP_CPU_AFFINITY", "MKL_NUM_THREADS"}) {
    const char* value = std::getenv(name);
    variables[name] = value ? Json(value) : Json(nullptr);
  }
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string text = *entry;
    const auto equals = text.find('=');
    if (equals == std::string::npos) continue;
    const std::string name = text.substr(0, equals);
    if (name.rfind("OPENBLAS_", 0) == 0 || name.rfind("CUDA_", 0) == 0 || name.rfind("NVIDIA_", 0) == 0) {
      variables[name] = text.substr(equals + 1);
    }
  }
  process["variables"] = variables;
  return process;
}

// NVML's view of one device at one moment, or null with the reason. Unused when built without CUDA.
[[maybe_unused]] void put_nvml(Json& gpu, const std::string& key, const Json& readings, const std::string& uuid) {
  if (!readings.is_object() || !readings["devices"].is_object()) {
    put(gpu, key, nullptr,
        readings.is_object() && readings.contains("devices_unavailable")
            ? readings["devices_unavailable"].get<std::string>()
            : "NVML was not read");
  } else if (!readings["devices"].contains(uuid)) {
    put(gpu, key, nullptr, "NVML does not list " + uuid);
  } else {
    gpu[key] = readings["devices"][uuid];
  }
}

Json gpus_json(Json& environment, const Json& nvml_start, const Json& nvml_end, const CudaVersions& versions) {
  Json gpus = Json::array();
#ifdef GBX_HAVE_CUDA
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    environment["gpus_unavailable"] = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(rc);
    (void)cudaGetLastError();  // clear the sticky error for whoever asks next
    return gpus;
  }
  for (int i = 0; i < count; ++i) {
    Json gpu;
    gpu["index"] = i;
    cudaDeviceProp prop{};
    if (const cudaError_t prop_rc = cudaGetDeviceProperties(&prop, i); prop_rc != cudaSuccess) {
      put(gpu, "name", nullptr, std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(prop_rc));
      gpus.push_back(gpu);
      continue;
    }
    unsigned char bytes[16];
    std::memcpy(bytes, prop.uuid.bytes, sizeof bytes);
    const std::string uuid = nvml_uuid(bytes);
    gpu["name"] = prop.name;
    gpu["uuid"] = uuid;
    char bus[32] = {};
    put(gpu, "pci_bus_id", cudaDeviceGetPCIBusId(bus, sizeof bus, i) == cudaSuccess ? Json(bus) : Json(nullptr),
        "cudaDeviceGetPCIBusId failed");
    gpu["compute_capability"] = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    gpu["sm_count"] = prop.multiProcessorCount;
    gpu["memory_bytes"] = static_cast<unsigned long long>(prop.totalGlobalMem);
    gpu["memory_bus_width_bits"] = prop.memoryBusWidth;
    gpu["l2_cache_bytes"] = prop.l2CacheSize;
    gpu["ecc_enabled"] = prop.ECCEnabled != 0;
    put(gpu, "driver_version", versions.driver);
    put(gpu, "runtime_version", versions.runtime);
    put_nvml(gpu, "nvml_at_start", nvml_start, uuid);
    put_nvml(gpu, "nvml_at_end", nvml_end, uuid);
    gpus.push_back(gpu);
  }
#else
  (void)nvml_start;
  (void)nvml_end;
  (void)versions;
  environment["gpus_unavailable"] = "gbx was built without CUDA";
#endif
  return gpus;
}

Json cuda_json(const CudaVersions& versions) {
  Json cuda;
#ifdef GBX_HAVE_CUDA
  const std::string reason = cuda_unavailable_reason();
  cuda["device_available"] = reason.empty();
  if (!reason.empty()) cuda["device_unavailable"] = reason;
#else
  cuda["device_available"] = false;
  cuda["device_unavailable"] = "gbx was built without CUDA";
#endif
  put(cuda, "runtime_version", versions.runtime);
  put(cuda, "driver_version", versions.driver);
  return cuda;
}

Json capture(const EnvironmentSnapshot* start, const std::vector<std::string>& argv) {
  Json environment;
  environment["host"] = host_json(start);
  const OpenBlas blas = openblas();
  const Maybe cublas = cublas_version();
  const CudaVersions versions = cuda_versions();
  environment["build"] = build_json(blas.version, blas, cublas);
  environment["source"] = source_json(environment["build"], versions);
  environment["process"] = process_json(argv);
  environment["cuda"] = cuda_json(versions);
  const Json nvml_end = read_nvml();
  const Json nvml_start =
      start ? start->nvml
            : Json{{"devices", nullptr},
                   {"devices_unavailable", "no start snapshot: the caller did not call capture_start()"}};
  if (nvml_end["devices"].is_object()) {
    environment["nvml"] = {{"device_count", nvml_end["devices"].size()}};
  } else {
    put(environment, "nvml", nullptr, nvml_end["devices_unavailable"].get<std::string>());
  }
  environment["gpus"] = gpus_json(environment, nvml_start, nvml_end, versions);
  return environment;
}

}  // namespace

std::string dependency_lock_hash(const std::map<std::string, std::optional<std::string>>& versions) {
  std::string lines;  // std::map iterates in sorted order
  for (const auto& [name, version] : versions) {
    if (version) lines += name + "=" + *version + "\n";
  }
  return sha256_hex(lines);
}

EnvironmentSnapshot capture_start() {
  EnvironmentSnapshot snapshot;
  std::string reason;
  snapshot.load_average = load_average_now(reason);
  snapshot.nvml = read_nvml();
  return snapshot;
}

nlohmann::json capture_environment(const EnvironmentSnapshot& at_start, const std::vector<std::string>& argv) {
  return capture(&at_start, argv);
}

nlohmann::json capture_environment() { return capture(nullptr, {}); }

}  // namespace gbx

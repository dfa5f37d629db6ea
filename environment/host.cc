// The machine (CPU, memory, OS, load) and the process (pid, argv, the variables that change results).
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "environment/environment_detail.h"
#include "environment/kernel_settings.h"
#include "environment/virtualization.h"

extern char** environ;

namespace gbx::environment_detail {

Maybe read_line(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {std::nullopt, path + ": " + std::strerror(errno)};
  std::string line;
  if (!std::getline(in, line)) return {std::nullopt, path + ": empty"};
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ' || line.back() == '\r')) line.pop_back();
  return {line, ""};
}

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

namespace {

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

}  // namespace

Json load_average_now(std::string& reason) {
  double load[3] = {};
  if (::getloadavg(load, 3) != 3) {
    reason = "getloadavg failed";
    return nullptr;
  }
  return {{"1m", load[0]}, {"5m", load[1]}, {"15m", load[2]}};
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
  host["virtualization"] = virtualization_json(read_virtualization_facts());
  host.update(kernel_settings_json());
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

}  // namespace gbx::environment_detail

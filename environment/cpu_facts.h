#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gbx {

// One data or unified cache level of one CPU, from sysfs cache/index*.
struct CacheLevel {
  int level = 0;
  std::int64_t bytes = 0;  // one instance's size
  int cpus_sharing = 1;    // logical CPUs that share one instance
};

// The vector FMA hardware of one core, by microarchitecture.
struct FmaUnits {
  int units = 0;       // FMA pipes per core
  int width_bits = 0;  // width of each pipe
  std::string microarchitecture;
  std::string note;  // why the figure may be an upper bound, when it may
};

// What the CPU's theoretical peak is computed from. Every fact that cannot be read is absent, with
// the reason in `unknown` under the fact's name.
struct CpuFacts {
  std::string vendor;  // cpuid's vendor string, e.g. "GenuineIntel", "AuthenticAMD"
  int family = 0;      // cpuid's display family and model
  int model = 0;
  std::string isa;  // the widest FMA-capable vector ISA: "avx512", "avx2", or "none"
  std::optional<FmaUnits> fma;
  int logical_cpus_allowed = 0;               // sched_getaffinity
  std::optional<int> physical_cores_allowed;  // distinct (package, core) among them, from sysfs topology
  std::optional<double> max_hz;
  std::string max_hz_source;
  std::vector<CacheLevel> caches;  // data and unified levels, ascending
  std::map<std::string, std::string> unknown;
};

// FMA pipes per core for a cpuid vendor, family and model; absent when this table does not know
// the microarchitecture.
std::optional<FmaUnits> fma_units_for(const std::string& vendor, int family, int model);

// Reads the facts of the CPU this process may run on. sysfs_cpu is /sys/devices/system/cpu, or a
// stand-in tree for tests (cpu<N>/cpufreq/cpuinfo_max_freq, cpu<N>/topology/{core_id,
// physical_package_id}, cpu<N>/cache/index<K>/{level,type,size,shared_cpu_list}).
CpuFacts read_cpu_facts(const std::string& sysfs_cpu = "/sys/devices/system/cpu");

nlohmann::json cpu_facts_json(const CpuFacts& facts);

}  // namespace gbx

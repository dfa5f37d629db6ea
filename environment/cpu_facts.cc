#include "environment/cpu_facts.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace gbx {

namespace {

std::optional<std::string> read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

std::optional<long long> read_integer(const std::string& path) {
  const auto line = read_line(path);
  if (!line || line->empty()) return std::nullopt;
  char* end = nullptr;
  const long long value = std::strtoll(line->c_str(), &end, 10);
  if (end == line->c_str()) return std::nullopt;
  return value;
}

// "32K", "1024K", "2M", "12345" (bytes).
std::optional<std::int64_t> parse_size(const std::string& text) {
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || value <= 0) return std::nullopt;
  const char unit = *end;
  constexpr std::int64_t kKiB = 1024;  // 64-bit, so the products below do not overflow an int
  const std::int64_t scale = unit == 'K' ? kKiB : unit == 'M' ? kKiB * kKiB : unit == 'G' ? kKiB * kKiB * kKiB : 1;
  return static_cast<std::int64_t>(value) * scale;
}

// "0-3,8,10-11" -> 7.
int count_cpu_list(const std::string& list) {
  int count = 0;
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string part = list.substr(at, comma - at);
    const std::size_t dash = part.find('-');
    if (dash == std::string::npos) {
      count += part.empty() ? 0 : 1;
    } else {
      count += std::atoi(part.c_str() + dash + 1) - std::atoi(part.c_str()) + 1;
    }
    at = comma + 1;
  }
  return count;
}

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

void read_identity(CpuFacts& facts) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
    const unsigned max_leaf = eax;
    char vendor[13] = {};
    std::copy_n(reinterpret_cast<const char*>(&ebx), 4, vendor);
    std::copy_n(reinterpret_cast<const char*>(&edx), 4, vendor + 4);
    std::copy_n(reinterpret_cast<const char*>(&ecx), 4, vendor + 8);
    facts.vendor = vendor;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
      const int base_family = static_cast<int>((eax >> 8) & 0xF);
      facts.family = base_family == 0xF ? base_family + static_cast<int>((eax >> 20) & 0xFF) : base_family;
      facts.model = static_cast<int>((eax >> 4) & 0xF);
      if (base_family == 0x6 || base_family == 0xF) facts.model |= static_cast<int>((eax >> 16) & 0xF) << 4;
    }
    // Leaf 0x16 (Intel since Skylake): the maximum frequency in MHz; zero or absent elsewhere.
    if (max_leaf >= 0x16 && __get_cpuid(0x16, &eax, &ebx, &ecx, &edx) && (ebx & 0xFFFF) != 0) {
      facts.max_hz = (ebx & 0xFFFF) * 1e6;
      facts.max_hz_source = "cpuid leaf 0x16 (maximum frequency)";
    }
  }
  // __builtin_cpu_supports also checks that the OS saves the wide registers (XGETBV).
  if (__builtin_cpu_supports("avx512f")) {
    facts.isa = "avx512";
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    facts.isa = "avx2";
  } else {
    facts.isa = "none";
  }
#else
  facts.isa = "none";
  facts.unknown["vendor"] = "cpuid is x86 only";
#endif
}

}  // namespace

std::optional<FmaUnits> fma_units_for(const std::string& vendor, int family, int model) {
  if (vendor == "GenuineIntel" && family == 6) {
    // Core client parts from Haswell on, Alder and Raptor Lake's P-cores included: two 256-bit FMA pipes.
    static const std::set<int> two_256 = {0x3C, 0x3F, 0x45, 0x46, 0x3D, 0x47, 0x4F, 0x56, 0x4E, 0x5E, 0x8E, 0x9E,
                                          0xA5, 0xA6, 0x97, 0x9A, 0xB7, 0xBA, 0xBF, 0x7D, 0x7E, 0x8C, 0x8D, 0xA7};
    if (two_256.count(model)) return FmaUnits{2, 256, "Intel Core (Haswell or later client)", ""};
    if (model == 0x55) {
      return FmaUnits{2, 512, "Intel Xeon Skylake-SP/Cascade Lake",
                      "upper bound: some SKUs of this model have one AVX-512 FMA unit, not two"};
    }
    static const std::set<int> two_512 = {0x6A, 0x6C, 0x8F, 0xCF, 0xAD, 0xAE};
    if (two_512.count(model)) return FmaUnits{2, 512, "Intel Xeon (Ice Lake-SP or later)", ""};
    return std::nullopt;
  }
  if (vendor == "AuthenticAMD") {
    if (family == 0x17 && model < 0x30) return FmaUnits{2, 128, "AMD Zen/Zen+", ""};
    if (family == 0x17) return FmaUnits{2, 256, "AMD Zen 2", ""};
    // Zen 4 runs AVX-512 on its two 256-bit pipes.
    if (family == 0x19) return FmaUnits{2, 256, "AMD Zen 3/Zen 4", ""};
    if (family == 0x1A) {
      return FmaUnits{2, 512, "AMD Zen 5", "upper bound: mobile Zen 5 parts have 256-bit FMA pipes"};
    }
  }
  return std::nullopt;
}

CpuFacts read_cpu_facts(const std::string& sysfs_cpu) {
  CpuFacts facts;
  read_identity(facts);
  facts.fma = fma_units_for(facts.vendor, facts.family, facts.model);
  if (!facts.fma) {
    facts.unknown["fma"] = "FMA units per core of " + facts.vendor + " family " + std::to_string(facts.family) +
                           " model " + std::to_string(facts.model) + " are not in gbx's table";
  }
  if (facts.isa == "none") facts.unknown["isa"] = "no AVX2+FMA or AVX-512: gbx has no FMA peak for this CPU";

  const std::vector<int> cpus = allowed_cpus();
  facts.logical_cpus_allowed = static_cast<int>(cpus.size());
  std::set<std::pair<long long, long long>> cores;
  bool topology_known = !cpus.empty();
  double max_khz = 0.0;
  for (int cpu : cpus) {
    const std::string dir = sysfs_cpu + "/cpu" + std::to_string(cpu);
    const auto package = read_integer(dir + "/topology/physical_package_id");
    const auto core = read_integer(dir + "/topology/core_id");
    if (package && core) {
      cores.insert({*package, *core});
    } else {
      topology_known = false;
    }
    if (const auto khz = read_integer(dir + "/cpufreq/cpuinfo_max_freq")) max_khz = std::max(max_khz, double(*khz));
  }
  if (topology_known) {
    facts.physical_cores_allowed = static_cast<int>(cores.size());
  } else {
    facts.unknown["physical_cores_allowed"] = "sysfs topology unreadable: counted as one core per logical CPU";
  }
  // sysfs first: it is what the kernel lets the CPU reach; leaf 0x16 is the fallback.
  if (max_khz > 0.0) {
    facts.max_hz = max_khz * 1e3;
    facts.max_hz_source = "sysfs cpufreq/cpuinfo_max_freq (highest over the allowed CPUs)";
  }
  if (!facts.max_hz) {
    facts.unknown["max_hz"] = "no cpufreq in sysfs (common in VMs) and no cpuid leaf 0x16";
  }

  const int first = cpus.empty() ? 0 : cpus.front();
  for (int index = 0;; ++index) {
    const std::string dir = sysfs_cpu + "/cpu" + std::to_string(first) + "/cache/index" + std::to_string(index);
    const auto level = read_integer(dir + "/level");
    if (!level) break;
    const auto type = read_line(dir + "/type");
    const auto size = read_line(dir + "/size");
    if (!type || *type == "Instruction" || !size) continue;
    const auto bytes = parse_size(*size);
    if (!bytes) continue;
    const auto sharing = read_line(dir + "/shared_cpu_list");
    facts.caches.push_back({static_cast<int>(*level), *bytes, sharing ? std::max(1, count_cpu_list(*sharing)) : 1});
  }
  std::sort(facts.caches.begin(), facts.caches.end(),
            [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
  if (facts.caches.empty()) facts.unknown["caches"] = "sysfs cache/index* unreadable";
  return facts;
}

nlohmann::json cpu_facts_json(const CpuFacts& f) {
  nlohmann::json j = {{"vendor", f.vendor},
                      {"family", f.family},
                      {"model", f.model},
                      {"isa", f.isa},
                      {"logical_cpus_allowed", f.logical_cpus_allowed}};
  j["physical_cores_allowed"] = f.physical_cores_allowed ? nlohmann::json(*f.physical_cores_allowed) : nullptr;
  j["max_hz"] = f.max_hz ? nlohmann::json(*f.max_hz) : nullptr;
  if (f.max_hz) j["max_hz_source"] = f.max_hz_source;
  if (f.fma) {
    j["fma"] = {
        {"units", f.fma->units}, {"width_bits", f.fma->width_bits}, {"microarchitecture", f.fma->microarchitecture}};
    if (!f.fma->note.empty()) j["fma"]["note"] = f.fma->note;
  } else {
    j["fma"] = nullptr;
  }
  nlohmann::json caches = nlohmann::json::array();
  for (const auto& c : f.caches)
    caches.push_back({{"level", c.level}, {"bytes", c.bytes}, {"cpus_sharing", c.cpus_sharing}});
  j["caches"] = caches;
  j["unknown"] = f.unknown;
  return j;
}

}  // namespace gbx

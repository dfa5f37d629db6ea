#include "environment/kernel_settings.h"

#include <sstream>

#include "environment/environment_detail.h"

namespace gbx {
namespace {

using Json = nlohmann::json;

// Parameters that change how fast code runs or how steadily: isolation and tick, speculation
// mitigations, the clock, frequency and idle states, huge pages and NUMA, IOMMU, memory zeroing.
constexpr const char* kTimingParameters[] = {"isolcpus",
                                             "nohz_full",
                                             "nohz",
                                             "rcu_nocbs",
                                             "irqaffinity",
                                             "skew_tick",
                                             "threadirqs",
                                             "preempt",
                                             "nosmt",
                                             "mitigations",
                                             "pti",
                                             "nopti",
                                             "spectre_v2",
                                             "spectre_v2_user",
                                             "spec_store_bypass_disable",
                                             "mds",
                                             "tsx",
                                             "tsx_async_abort",
                                             "retbleed",
                                             "l1tf",
                                             "clocksource",
                                             "tsc",
                                             "nohpet",
                                             "intel_pstate",
                                             "amd_pstate",
                                             "cpufreq.default_governor",
                                             "processor.max_cstate",
                                             "intel_idle.max_cstate",
                                             "idle",
                                             "cpuidle.off",
                                             "transparent_hugepage",
                                             "hugepages",
                                             "hugepagesz",
                                             "default_hugepagesz",
                                             "numa_balancing",
                                             "numa",
                                             "iommu",
                                             "intel_iommu",
                                             "amd_iommu",
                                             "init_on_alloc",
                                             "init_on_free",
                                             "page_alloc.shuffle",
                                             "randomize_kstack_offset",
                                             "nosoftlockup",
                                             "audit"};
// Hypervisor-specific and scheduler parameters, by prefix: their names vary by kernel.
constexpr const char* kTimingPrefixes[] = {"pvm", "kvm", "xen", "hv_", "sched_"};

bool timing_parameter(const std::string& name) {
  for (const char* known : kTimingParameters) {
    if (name == known) return true;
  }
  for (const char* prefix : kTimingPrefixes) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// "always [madvise] never": the bracketed choice.
environment_detail::Maybe bracketed_choice(const environment_detail::Maybe& line, const std::string& path) {
  if (!line.value) return line;
  const auto open = line.value->find('['), close = line.value->find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return {std::nullopt, path + ": no [choice] in \"" + *line.value + "\""};
  }
  return {line.value->substr(open + 1, close - open - 1), ""};
}

}  // namespace

std::vector<std::string> timing_kernel_parameters(const std::string& command_line) {
  std::vector<std::string> kept;
  std::istringstream words(command_line);
  std::string word;
  while (words >> word) {
    if (word == "--") break;
    const std::string name = word.substr(0, word.find('='));
    if (timing_parameter(name)) kept.push_back(word);
  }
  return kept;
}

Json kernel_settings_json(const std::string& proc, const std::string& sys) {
  Json out;
  const environment_detail::Maybe command_line = environment_detail::read_line(proc + "/cmdline");
  environment_detail::put(out, "kernel_parameters",
                          command_line.value ? Json(timing_kernel_parameters(*command_line.value)) : Json(nullptr),
                          command_line.reason);
  environment_detail::put(
      out, "clocksource",
      environment_detail::read_line(sys + "/devices/system/clocksource/clocksource0/current_clocksource"));
  const std::string thp = sys + "/kernel/mm/transparent_hugepage/enabled";
  environment_detail::put(out, "transparent_hugepage", bracketed_choice(environment_detail::read_line(thp), thp));
  return out;
}

}  // namespace gbx

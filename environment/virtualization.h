#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace gbx {

// Whether the machine is a virtual one. A guest's timings carry what the hypervisor adds (shadow page
// tables per process, vCPUs that are host threads, a paravirtual clock), so a reader of the record
// should see it. Each fact that cannot be read is absent, with the reason in `unknown` under its name.
struct VirtualizationFacts {
  std::optional<std::string> cpu_flags;            // /proc/cpuinfo's "flags" (x86 only)
  std::optional<std::string> cpuid_hypervisor;     // cpuid leaf 0x40000000's signature, when the hypervisor bit is set
  std::optional<std::string> dmi_vendor;           // /sys/class/dmi/id/sys_vendor
  std::optional<std::string> dmi_product;          // /sys/class/dmi/id/product_name
  std::optional<std::string> sys_hypervisor_type;  // /sys/hypervisor/type (Xen)
  std::map<std::string, std::string> unknown;
};

// proc and sys are /proc and /sys, or stand-in trees for tests; cpuid is read from this CPU.
VirtualizationFacts read_virtualization_facts(const std::string& proc = "/proc", const std::string& sys = "/sys");

// {guest, evidence, cpuid_hypervisor, dmi_vendor, dmi_product, sys_hypervisor_type}. `guest` is true on
// any sign of a hypervisor, false where x86's flags show none and nothing else does, and otherwise null
// with `guest_unavailable`: off x86 only DMI or /sys/hypervisor can tell, and their silence proves nothing.
nlohmann::json virtualization_json(const VirtualizationFacts& facts);

}  // namespace gbx

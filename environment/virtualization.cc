#include "environment/virtualization.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <vector>

#include "environment/environment_detail.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace gbx {
namespace {

using environment_detail::Maybe;
using Json = nlohmann::json;

void take(std::optional<std::string>& fact, const std::string& name, const Maybe& read,
          std::map<std::string, std::string>& unknown) {
  if (read.value && !read.value->empty()) {
    fact = read.value;
  } else {
    unknown[name] = read.value ? "empty" : read.reason;
  }
}

bool has_flag(const std::string& flags, const std::string& flag) {
  std::istringstream words(flags);
  std::string word;
  while (words >> word) {
    if (word == flag) return true;
  }
  return false;
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// DMI strings that only virtual machines report. "Amazon EC2" names bare-metal instances too (their
// product ends in ".metal"), so it counts only with another product.
bool virtual_dmi(const std::string& vendor, const std::string& product) {
  for (const char* name : {"QEMU", "KVM", "VMware", "VirtualBox", "innotek", "Xen", "Bochs", "Parallels", "BHYVE",
                           "OpenStack", "Firecracker", "Google Compute Engine"}) {
    if (contains(vendor, name) || contains(product, name)) return true;
  }
  if (contains(vendor, "Microsoft") && contains(product, "Virtual Machine")) return true;
  const std::string metal = ".metal";
  const bool bare_metal =
      product.size() >= metal.size() && product.compare(product.size() - metal.size(), metal.size(), metal) == 0;
  return contains(vendor, "Amazon EC2") && !bare_metal;
}

std::string trimmed(std::string text) {
  text.erase(std::find_if(text.rbegin(), text.rend(), [](char c) { return c != ' ' && c != '\0'; }).base(), text.end());
  return text;
}

}  // namespace

VirtualizationFacts read_virtualization_facts(const std::string& proc, const std::string& sys) {
  VirtualizationFacts facts;
  take(facts.cpu_flags, "cpu_flags", environment_detail::read_field(proc + "/cpuinfo", "flags"), facts.unknown);
  take(facts.dmi_vendor, "dmi_vendor", environment_detail::read_line(sys + "/class/dmi/id/sys_vendor"), facts.unknown);
  take(facts.dmi_product, "dmi_product", environment_detail::read_line(sys + "/class/dmi/id/product_name"),
       facts.unknown);
  take(facts.sys_hypervisor_type, "sys_hypervisor_type", environment_detail::read_line(sys + "/hypervisor/type"),
       facts.unknown);
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  // Leaf 0x40000000 means something only under a hypervisor (CPUID.1:ECX bit 31); on bare metal it
  // echoes the highest basic leaf.
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1U << 31)) != 0) {
    __cpuid(0x40000000, eax, ebx, ecx, edx);
    char signature[13] = {};
    std::memcpy(signature, &ebx, 4);
    std::memcpy(signature + 4, &ecx, 4);
    std::memcpy(signature + 8, &edx, 4);
    const std::string text = trimmed(signature);
    if (text.empty()) {
      facts.unknown["cpuid_hypervisor"] = "cpuid leaf 0x40000000 gives an empty signature";
    } else {
      facts.cpuid_hypervisor = text;
    }
  } else {
    facts.unknown["cpuid_hypervisor"] = "cpuid's hypervisor bit is clear";
  }
#else
  facts.unknown["cpuid_hypervisor"] = "cpuid is x86 only";
#endif
  return facts;
}

Json virtualization_json(const VirtualizationFacts& facts) {
  Json out;
  std::vector<std::string> evidence;
  if (facts.cpu_flags && has_flag(*facts.cpu_flags, "hypervisor")) {
    evidence.emplace_back("/proc/cpuinfo flags: hypervisor");
  }
  if (facts.cpuid_hypervisor) evidence.push_back("cpuid leaf 0x40000000: \"" + *facts.cpuid_hypervisor + "\"");
  if (facts.sys_hypervisor_type) evidence.push_back("/sys/hypervisor/type: " + *facts.sys_hypervisor_type);
  const std::string vendor = facts.dmi_vendor.value_or(""), product = facts.dmi_product.value_or("");
  if (virtual_dmi(vendor, product)) evidence.push_back("DMI: " + trimmed(vendor + " " + product));
  if (!evidence.empty()) {
    out["guest"] = true;
  } else if (facts.cpu_flags) {
    out["guest"] = false;
  } else {
    environment_detail::put(out, "guest", nullptr,
                            "no CPU flags to read (not x86), and neither DMI nor /sys/hypervisor names a hypervisor");
  }
  out["evidence"] = evidence;
  const auto put_fact = [&](const char* key, const std::optional<std::string>& fact) {
    const auto why = facts.unknown.find(key);
    environment_detail::put(out, key, fact ? Json(*fact) : Json(nullptr),
                            why == facts.unknown.end() ? "" : why->second);
  };
  put_fact("cpuid_hypervisor", facts.cpuid_hypervisor);
  put_fact("dmi_vendor", facts.dmi_vendor);
  put_fact("dmi_product", facts.dmi_product);
  put_fact("sys_hypervisor_type", facts.sys_hypervisor_type);
  return out;
}

}  // namespace gbx

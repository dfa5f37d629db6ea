#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gbx {

// The CPU packages' energy from RAPL through the powercap interface: the top-level domains
// <root>/intel-rapl:<N>/energy_uj (AMD's RAPL appears under the same name). energy_uj is readable
// only by root on kernels patched for CVE-2020-8694, and absent in most VMs: then unavailable()
// says why and joules() is empty.
class PowercapMeter {
 public:
  explicit PowercapMeter(const std::string& root = "/sys/class/powercap");

  const std::string& unavailable() const { return unavailable_; }
  // What is summed, e.g. "RAPL package-0 + package-1 (powercap energy_uj)".
  const std::string& source() const { return source_; }
  // Joules counted by every package domain since this meter was made, wraps undone; empty when a
  // domain cannot be read.
  std::optional<double> joules();

 private:
  struct Domain {
    std::string energy_path;
    double range_uj = 0.0;  // max_energy_range_uj: where energy_uj wraps to 0
    double last_uj = 0.0;
    double total_uj = 0.0;
  };
  std::vector<Domain> domains_;
  std::string unavailable_;
  std::string source_;
};

}  // namespace gbx

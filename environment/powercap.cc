#include "environment/powercap.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

namespace gbx {

namespace {

// A domain's counter, or the reason it cannot be read.
std::optional<double> read_counter(const std::string& path, std::string& why) {
  std::ifstream in(path);
  if (!in) {
    const int code = errno;
    why = "cannot read " + path + ": " + std::strerror(code) +
          (code == EACCES ? " (energy_uj is root-only since CVE-2020-8694)" : "");
    return std::nullopt;
  }
  double value = 0.0;
  if (!(in >> value)) {
    why = "cannot read " + path + ": not a number";
    return std::nullopt;
  }
  return value;
}

}  // namespace

PowercapMeter::PowercapMeter(const std::string& root) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(root, error)) {
    unavailable_ = root + " does not exist: no RAPL powercap interface here (a VM, or not x86)";
    return;
  }
  std::vector<std::pair<std::string, fs::path>> packages;
  for (const auto& entry : fs::directory_iterator(root, error)) {
    const std::string name = entry.path().filename().string();
    // intel-rapl:0 is a package; intel-rapl:0:0 (cores, uncore, dram) lies inside it.
    if (name.rfind("intel-rapl:", 0) == 0 && name.find(':', 11) == std::string::npos) {
      packages.emplace_back(name, entry.path());
    }
  }
  std::sort(packages.begin(), packages.end());
  if (packages.empty()) {
    unavailable_ = "no intel-rapl:<N> package domain under " + root;
    return;
  }
  for (const auto& [name, path] : packages) {
    Domain domain;
    domain.energy_path = (path / "energy_uj").string();
    std::string why;
    const auto now = read_counter(domain.energy_path, why);
    if (!now) {
      unavailable_ = why;
      domains_.clear();
      return;
    }
    domain.last_uj = *now;
    const auto range = read_counter((path / "max_energy_range_uj").string(), why);
    domain.range_uj = range.value_or(0.0);
    std::string label = name;
    std::ifstream(path / "name") >> label;
    source_ += (source_.empty() ? "RAPL " : " + ") + label;
    domains_.push_back(domain);
  }
  source_ += " (powercap energy_uj)";
}

std::optional<double> PowercapMeter::joules() {
  if (domains_.empty()) return std::nullopt;
  double total = 0.0;
  for (auto& domain : domains_) {
    std::string why;
    const auto now = read_counter(domain.energy_path, why);
    if (!now) return std::nullopt;
    // The counter wraps at max_energy_range_uj; one wrap between reads is all a short sample allows.
    double delta = *now - domain.last_uj;
    if (delta < 0.0) delta += domain.range_uj;
    domain.total_uj += delta;
    domain.last_uj = *now;
    total += domain.total_uj;
  }
  return total * 1e-6;
}

}  // namespace gbx

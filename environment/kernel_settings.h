#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gbx {

// The kernel's parameters that change timings (CPU isolation, mitigations, the clock, idle states,
// huge pages, paravirtualisation), in the command line's order. Init's arguments after " -- " and
// every other parameter are left out: a command line can carry what a shared record should not.
std::vector<std::string> timing_kernel_parameters(const std::string& command_line);

// {kernel_parameters, clocksource, transparent_hugepage}, each null with `<key>_unavailable` when it
// cannot be read. proc and sys are /proc and /sys, or stand-in trees for tests.
nlohmann::json kernel_settings_json(const std::string& proc = "/proc", const std::string& sys = "/sys");

}  // namespace gbx

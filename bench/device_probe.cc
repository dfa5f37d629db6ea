// bench/device_probe: what gbx's CUDA claims rest on, measured on the device itself (issue 22): the
// timers' resolution, launch latency, a kernel of known duration unbatched and through the
// fixture, an L2 working-set sweep and the flush, DRAM bandwidth against the computed peak, SGEMM
// against cuBLAS, NVML's energy counter, the clocks and one call's cost. Every figure is checked
// for plausibility and marked when it fails, never dropped.
//
//   device_probe [--out=FILE.json]   JSON to FILE (and a Markdown summary on stdout)
//
// Exit 0: measured (figures that fail their check are marked in both outputs); 77: no usable CUDA
// device, with the reason (as the other CUDA code, it is built everywhere CUDA is, and skips at
// run time); 2: a bad argument; 1: a CUDA error.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "bench/device_probe.h"
#include "extensions/cuda_check.h"
#include "extensions/cuda_device.h"

namespace gbx_probe {

Figure checked(std::string name, double value, std::string unit, std::string expectation, bool in_range,
               std::string note) {
  Figure figure;
  figure.name = std::move(name);
  figure.unit = std::move(unit);
  figure.expectation = std::move(expectation);
  figure.note = std::move(note);
  if (std::isfinite(value)) {
    figure.value = value;
    figure.plausible = in_range;
  } else {
    figure.unavailable = "not a finite number";
  }
  return figure;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

Figure not_measured(std::string name, std::string unit, std::string expectation, std::string why) {
  Figure figure;
  figure.name = std::move(name);
  figure.unit = std::move(unit);
  figure.expectation = std::move(expectation);
  figure.unavailable = why.empty() ? "unknown" : std::move(why);
  return figure;
}

nlohmann::json probe_json(const ProbeResult& result) {
  nlohmann::json figures = nlohmann::json::array();
  int failed = 0;
  for (const Figure& f : result.figures) {
    nlohmann::json entry = {{"name", f.name}, {"unit", f.unit},           {"expectation", f.expectation},
                            {"note", f.note}, {"plausible", f.plausible}, {"value", nullptr}};
    if (f.value) entry["value"] = *f.value;
    if (!f.unavailable.empty()) entry["unavailable"] = f.unavailable;
    failed += f.plausible ? 0 : 1;
    figures.push_back(entry);
  }
  return {{"probe", "gbx device_probe"}, {"version", 2},
          {"device", result.device},     {"figures", figures},
          {"failed_checks", failed},     {"l2_sweep", result.l2_sweep},
          {"clocks", result.clocks}};
}

std::string probe_markdown(const ProbeResult& result) {
  std::string text = "| Figure | Value | Expected | Check |\n|---|---:|---|---|\n";
  char value[64];
  for (const Figure& f : result.figures) {
    if (f.value) {
      std::snprintf(value, sizeof value, "%.4g %s", *f.value, f.unit.c_str());
    } else {
      std::snprintf(value, sizeof value, "-");
    }
    const std::string check = f.plausible ? "ok" : f.value ? "**FAILED**" : "**not measured**: " + f.unavailable;
    text += "| " + f.name + " | " + value + " | " + f.expectation + " | " + check + " |\n";
  }
  return text;
}

}  // namespace gbx_probe

int main(int argc, char** argv) {
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--out=", 0) == 0 && arg.size() > 6) {
      out = arg.substr(6);
    } else {
      std::cerr << "device_probe: unknown argument '" << arg << "'; usage: device_probe [--out=FILE.json]\n";
      return 2;
    }
  }
  const std::string reason = gbx::cuda_unavailable_reason();
  if (!reason.empty()) {
    std::cout << "device_probe: skipped: " << reason << "\n";
    return 77;
  }
  gbx_probe::ProbeResult result;
  try {
    cudaDeviceProp properties{};
    GBX_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    result.device = {{"name", properties.name},
                     {"compute_capability", std::to_string(properties.major) + "." + std::to_string(properties.minor)},
                     {"sm_count", properties.multiProcessorCount}};
    gbx_probe::probe_timers(result);
    gbx_probe::probe_known_duration(result);
    gbx_probe::probe_memory(result);
    gbx_probe::probe_gemm(result);
    gbx_probe::probe_nvml(result);
  } catch (const std::exception& error) {
    std::cerr << "device_probe: " << error.what() << "\n";
    result.figures.push_back(gbx_probe::not_measured("the rest of the probe", "", "", error.what()));
    if (!out.empty()) std::ofstream(out) << gbx_probe::probe_json(result).dump(2) << "\n";
    std::cout << gbx_probe::probe_markdown(result);
    return 1;
  }
  const nlohmann::json json = gbx_probe::probe_json(result);
  if (!out.empty()) {
    std::ofstream file(out);
    file << json.dump(2) << "\n";
    if (!file) {
      std::cerr << "device_probe: cannot write --out=" << out << "\n";
      return 2;
    }
  }
  std::cout << "device_probe: " << result.device["name"].get<std::string>() << "\n"
            << gbx_probe::probe_markdown(result);
  std::cout << "device_probe: " << json["failed_checks"].get<int>() << " of " << result.figures.size()
            << " figures failed their check\n";
  return 0;
}

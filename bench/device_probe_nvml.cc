// NVML: how often the total-energy counter moves and by how much (the resolution an energy figure
// per benchmark really has), the SM and memory clocks while the device is busy, and what one call
// costs the thread that makes it.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/device_probe.h"
#include "bench/device_probe_timing.h"
#include "environment/nvml.h"
#include "extensions/cpu_timer.h"

namespace gbx_probe {

namespace {

const char* const kCallName = "NVML call on the host: median wall time (the slower of energy and SM clock)";

// The median wall time of 21 calls.
double median_call_seconds(const std::function<void()>& call) {
  std::vector<double> seconds;
  for (int i = 0; i < 21; ++i) {
    const double start = gbx::steady_now_seconds();
    call();
    seconds.push_back(gbx::steady_now_seconds() - start);
  }
  return gbx::median(seconds).value_or(0.0);
}

// A slow call is a fact of the machine (a VM's NVML may take milliseconds), not a fault: gbx reads
// NVML from a sampler thread, off the timed region, so the figure is reported, never failed.
Figure call_cost(const gbx::NvmlSession& session, gbx::NvmlDevice* device) {
  std::string why;
  const double energy = median_call_seconds([&] { (void)session.total_energy_mj(device, why); });
  const double clock = median_call_seconds([&] { (void)session.sm_clock_mhz(device); });
  const double slower = std::max(energy, clock);
  const std::string each = "energy " + number(energy * 1e3) + " ms, SM clock " + number(clock * 1e3) + " ms";
  const std::string expectation =
      slower <= 1e-3 ? "<= 1 ms: gbx reads NVML from a sampler thread (" + each + ")"
                     : "**finding**: above 1 ms (" + each +
                           "), this machine's NVML, not a fault; gbx reads NVML from a sampler thread, at most "
                           "one reading per call";
  return checked(kCallName, slower * 1e3, "ms", expectation, slower > 0.0,
                 "21 calls each of nvmlDeviceGetTotalEnergyConsumption and the SM clock query, device idle");
}

}  // namespace

void probe_nvml(ProbeResult& result) {
  const std::string energy_name = "NVML energy counter: update period";
  const std::string step_name = "NVML energy counter: step";
  gbx::NvmlSession session;
  cudaDeviceProp properties{};
  GBX_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  unsigned char bytes[16];
  std::memcpy(bytes, properties.uuid.bytes, sizeof bytes);
  std::string why = session.unavailable();
  gbx::NvmlDevice* device = why.empty() ? session.device(gbx::nvml_uuid(bytes), why) : nullptr;
  if (device == nullptr) {
    result.figures.push_back(not_measured(energy_name, "ms", "> 0", why));
    result.figures.push_back(not_measured(step_name, "mJ", "> 0", why));
    result.figures.push_back(not_measured(kCallName, "ms", "<= 1 ms", why));
    return;
  }
  int max_clock_khz = 0;
  GBX_CUDA_CHECK(cudaDeviceGetAttribute(&max_clock_khz, cudaDevAttrClockRate, 0));

  // Poll for 0.8 s while one long spin keeps the device out of idle; note each change.
  ProbeStream stream;
  gbx::launch_spin_for(900'000'000, stream.get());
  std::vector<double> change_times;
  std::vector<double> steps;
  std::optional<unsigned long long> last = session.total_energy_mj(device, why);
  const double start = gbx::steady_now_seconds();
  unsigned highest_sm = 0;
  unsigned highest_memory = 0;
  for (double now = start; now - start < 0.8 && last; now = gbx::steady_now_seconds()) {
    const auto energy = session.total_energy_mj(device, why);
    if (!energy) break;
    if (*energy != *last) {
      change_times.push_back(now);
      steps.push_back(static_cast<double>(*energy - *last));
      last = energy;
    }
    if (change_times.size() % 4 == 1) {
      highest_sm = std::max(highest_sm, session.sm_clock_mhz(device).value_or(0));
      highest_memory = std::max(highest_memory, session.memory_clock_mhz(device).value_or(0));
    }
  }
  GBX_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  std::vector<double> periods;
  for (std::size_t i = 1; i < change_times.size(); ++i) periods.push_back(change_times[i] - change_times[i - 1]);
  if (periods.empty()) {
    const std::string reason = last ? "the counter changed fewer than twice in 0.8 s" : why;
    result.figures.push_back(not_measured(energy_name, "ms", "> 0 and <= 1000 ms", reason));
    result.figures.push_back(not_measured(step_name, "mJ", "> 0", reason));
  } else {
    const double period = gbx::median(periods).value_or(0.0);
    result.figures.push_back(checked(energy_name, period * 1e3, "ms",
                                     "> 0 and <= 1000 ms; an energy per benchmark shorter than this is not resolved",
                                     period > 0.0 && period <= 1.0,
                                     std::to_string(change_times.size()) + " changes in 0.8 s of polling"));
    const double step = gbx::median(steps).value_or(0.0);
    result.figures.push_back(checked(step_name, step, "mJ", "> 0 (gbx's energy observer assumes 1 mJ)", step > 0.0,
                                     "the median change of nvmlDeviceGetTotalEnergyConsumption"));
  }
  const int max_clock_mhz = max_clock_khz / 1000;  // whole MHz, as NVML reports its clocks
  result.clocks.push_back({{"phase", "a one-thread spin"},
                           {"sm_mhz", highest_sm},
                           {"memory_mhz", highest_memory},
                           {"sm_max_mhz", max_clock_mhz}});
  result.figures.push_back(checked("SM clock while busy (NVML)", highest_sm, "MHz",
                                   "> 0 and <= the highest SM clock (" + std::to_string(max_clock_mhz) + " MHz)",
                                   highest_sm > 0 && highest_sm <= max_clock_mhz * 1.01));
  result.figures.push_back(checked("memory clock while busy (NVML)", highest_memory, "MHz", "> 0", highest_memory > 0));
  result.figures.push_back(call_cost(session, device));
}

}  // namespace gbx_probe

// What the clock sampler (environment/clock_sampler.h) costs a benchmark: the time of one reading,
// and the slowdown of a CPU-bound loop while the sampler reads at 100 Hz, against the same loop
// without it, alternated 15 times; medians of both and their ratio. With a GPU the readings are
// NVML's for device 0; without one, the loop runs beside an NVML stand-in if LD_LIBRARY_PATH holds
// one (tests/environment/fake_nvml), else beside a sampler whose reading does nothing.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "environment/clock_sampler.h"
#include "environment/nvml.h"
#include "stats/statistics.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// About 50 ms of dependent floating-point work on this thread.
double busy_loop() {
  volatile double sink = 0.0;
  double x = 1.0;
  for (long i = 0; i < 20'000'000; ++i) x = x * 0.999999 + 1e-7;
  sink = x;
  return sink;
}

}  // namespace

int main() {
  gbx::NvmlSession nvml;
  gbx::NvmlDevice* device = nullptr;
  std::string source = "a no-op reading (no NVML: " + nvml.unavailable() + ")";
  if (nvml.unavailable().empty()) {
    const nlohmann::json devices = gbx::read_nvml()["devices"];
    std::string why;
    if (devices.is_object() && !devices.empty()) device = nvml.device(devices.begin().key(), why);
    source = device ? "NVML device " + devices.begin().key() : "a no-op reading (" + why + ")";
  }
  const gbx::ClockSampler::Read read = [&nvml, device] {
    if (!device) return gbx::ClockReading{};
    return gbx::ClockReading{nvml.sm_clock_mhz(device), nvml.memory_clock_mhz(device),
                             nvml.clock_event_reasons(device)};
  };

  std::vector<double> reading_seconds;
  for (int i = 0; i < 200; ++i) {
    const auto start = Clock::now();
    const gbx::ClockReading r = read();
    reading_seconds.push_back(seconds_since(start));
    if (r.sm_mhz && *r.sm_mhz == 0) std::printf(" ");
  }

  std::vector<double> without, with;
  for (int round = 0; round < 15; ++round) {
    auto start = Clock::now();
    busy_loop();
    without.push_back(seconds_since(start));
    gbx::ClockSampler sampler(read, std::chrono::milliseconds(10));
    sampler.start();
    start = Clock::now();
    busy_loop();
    with.push_back(seconds_since(start));
    sampler.stop();
  }
  const double plain = *gbx::median(without);
  const double sampled = *gbx::median(with);
  std::printf("clock sampler overhead, readings from %s\n", source.c_str());
  std::printf("  one reading (SM clock, memory clock, clock-event reasons): median %.2f us over 200\n",
              *gbx::median(reading_seconds) * 1e6);
  std::printf("  CPU-bound loop: %.3f ms without the sampler, %.3f ms with it at 100 Hz (medians of 15)\n",
              plain * 1e3, sampled * 1e3);
  std::printf("  ratio with/without: %.4f (%+.2f%%)\n", sampled / plain, 100.0 * (sampled / plain - 1.0));
  return 0;
}

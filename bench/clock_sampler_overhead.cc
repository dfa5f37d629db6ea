// What the clock sampler (environment/clock_sampler.h) costs a benchmark: the time of one reading,
// and the slowdown of a CPU-bound loop while the sampler reads at 100 Hz, against the same loop
// without it, alternated 15 times; medians of both and their ratio; and the sampler's own CPU time. With a GPU the
// readings are NVML's for device 0; without one, the loop runs beside an NVML stand-in if LD_LIBRARY_PATH holds one
// (tests/environment/fake_nvml), else beside a sampler whose reading does nothing.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "environment/clock_sampler.h"
#include "environment/nvml.h"
#include "model/clock.h"
#include "stats/statistics.h"

namespace {

using Clock = std::chrono::steady_clock;

double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

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
    reading_seconds.push_back(gbx::seconds_since(start));
    if (r.sm_mhz && *r.sm_mhz == 0) std::printf(" ");
  }

  // Alternated, the order flipped every round, so that a load that comes and goes hits both alike.
  std::vector<double> without, with;
  for (int round = 0; round < 15; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      const bool sampled = (turn == 0) == (round % 2 == 0);
      gbx::ClockSampler sampler(read, std::chrono::milliseconds(10));
      if (sampled) sampler.start();
      const auto start = Clock::now();
      busy_loop();
      (sampled ? with : without).push_back(gbx::seconds_since(start));
      if (sampled) sampler.stop();
    }
  }
  // The sampler's own CPU time, which a loaded machine's noise does not blur: the process's CPU
  // time over one idle second with the sampler running, less the same without it.
  const auto idle_cpu = [&read](bool sampled) {
    gbx::ClockSampler sampler(read, std::chrono::milliseconds(10));
    if (sampled) sampler.start();
    const double before = process_cpu_seconds();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const double used = process_cpu_seconds() - before;
    if (sampled) sampler.stop();
    return used;
  };
  const double idle_without = idle_cpu(false);
  const double idle_with = idle_cpu(true);
  const double plain = *gbx::median(without);
  const double sampled = *gbx::median(with);
  std::printf("clock sampler overhead, readings from %s\n", source.c_str());
  std::printf("  one reading (SM clock, memory clock, clock-event reasons): median %.2f us over 200\n",
              *gbx::median(reading_seconds) * 1e6);
  std::printf("  sampler's CPU time at 100 Hz: %.0f us per second (%.3f%% of one core)\n",
              (idle_with - idle_without) * 1e6, 100.0 * (idle_with - idle_without));
  std::printf("  CPU-bound loop: %.3f ms without the sampler, %.3f ms with it at 100 Hz (medians of 15, alternated)\n",
              plain * 1e3, sampled * 1e3);
  std::printf("  ratio with/without: %.4f (%+.2f%%)\n", sampled / plain, 100.0 * (sampled / plain - 1.0));
  return 0;
}

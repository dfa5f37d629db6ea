#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "environment/clock_sampler.h"
#include "environment/energy_tally.h"
#include "environment/nvml.h"
#include "environment/powercap.h"
#include "extensions/observer.h"

namespace gbx {

// The observer gbx installs (extensions/observer.h): the GPU's NVML energy counter and the CPU's
// RAPL counters around each sample; the GPU's clocks and clock-event reasons on a sampler thread.
class EnvironmentObserver final : public BenchmarkObserver {
 public:
  struct Options {
    std::string powercap_root = "/sys/class/powercap";
    std::chrono::microseconds clock_period{10'000};  // 100 readings a second
  };
  EnvironmentObserver();
  explicit EnvironmentObserver(Options options);
  ~EnvironmentObserver() override;

  void benchmark_started(const std::optional<std::array<unsigned char, 16>>& gpu_uuid) override;
  void sample_started() override;
  void sample_finished(std::int64_t runs) override;
  std::optional<double> sm_clock_mhz() override;
  detail::Observations benchmark_finished() override;

 private:
  std::optional<double> gpu_joules();

  Options options_;
  std::unique_ptr<NvmlSession> nvml_;  // loaded at the first GPU benchmark: nvmlInit is slow
  NvmlDevice* device_ = nullptr;
  std::string gpu_unavailable_;
  std::unique_ptr<PowercapMeter> powercap_;
  std::optional<EnergyTally> gpu_tally_;
  // The GPU energy counter's resolution, measured: the smallest rise between two of this benchmark's
  // readings (NVML counts in mJ, but the counter moves in far larger steps, tens of ms apart).
  std::optional<unsigned long long> last_gpu_mj_;
  std::optional<unsigned long long> smallest_gpu_step_mj_;
  std::optional<EnergyTally> cpu_tally_;
  std::unique_ptr<ClockSampler> sampler_;
  bool gpu_benchmark_ = false;
  bool active_ = false;
};

}  // namespace gbx

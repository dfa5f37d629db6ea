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

// The observer gbx installs (extensions/observer.h): the CPU's RAPL counters around each sample; the
// GPU's NVML energy counter around groups of consecutive samples of at least energy_group_seconds;
// the GPU's clocks and clock-event reasons on a sampler thread. One NVML call took about 3.5 ms on
// an H200 VM (docs/gpu-results.md), and its counter moves every 0.1 s: read around every sample, it
// made each CUDA sample cost 7 ms and resolved nothing.
class EnvironmentObserver final : public BenchmarkObserver {
 public:
  struct Options {
    std::string powercap_root = "/sys/class/powercap";
    std::chrono::microseconds clock_period{10'000};  // 100 readings a second
    double energy_group_seconds = 0.2;               // 0: around every sample
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
  void close_gpu_group(double now);

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
  // The group of samples the GPU counter's last reading opened.
  bool gpu_group_open_ = false;
  double gpu_group_start_ = 0.0;
  std::int64_t gpu_group_runs_ = 0;
  std::int64_t gpu_group_samples_ = 0;
  std::optional<EnergyTally> cpu_tally_;
  std::unique_ptr<ClockSampler> sampler_;
  bool gpu_benchmark_ = false;
  bool active_ = false;
};

}  // namespace gbx

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

// The observer gbx installs (extensions/observer.h): the CPU's RAPL counters around each sample
// (sysfs: cheap); on a sampler thread, the GPU's clocks, clock-event reasons and NVML energy counter.
// The measurement thread makes no NVML call per sample: one took about 3.5 ms on an H200 VM, and
// read around every sample it made each CUDA sample cost 7 ms (docs/energy.md).
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
  Options options_;
  std::unique_ptr<NvmlSession> nvml_;  // loaded at the first GPU benchmark: nvmlInit is slow
  NvmlDevice* device_ = nullptr;
  std::string gpu_unavailable_;
  std::unique_ptr<PowercapMeter> powercap_;
  bool gpu_energy_ = false;  // the device's energy counter answered at benchmark_started
  SampleSpan gpu_span_;
  double sample_start_ = 0.0;
  std::optional<EnergyTally> cpu_tally_;
  std::unique_ptr<ClockSampler> sampler_;
  bool gpu_benchmark_ = false;
  bool active_ = false;
};

}  // namespace gbx

#include "environment/benchmark_observer.h"

#include <utility>

namespace gbx {

namespace {

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr const char* kNvmlEnergy = "nvmlDeviceGetTotalEnergyConsumption (millijoules)";

}  // namespace

EnvironmentObserver::EnvironmentObserver() : EnvironmentObserver(Options{}) {}

EnvironmentObserver::EnvironmentObserver(Options options) : options_(std::move(options)) {}

EnvironmentObserver::~EnvironmentObserver() {
  if (sampler_) sampler_->stop();
}

std::optional<double> EnvironmentObserver::gpu_joules() {
  std::string why;
  const auto millijoules = nvml_->total_energy_mj(device_, why);
  if (!millijoules) return std::nullopt;
  if (last_gpu_mj_ && *millijoules > *last_gpu_mj_) {
    const unsigned long long step = *millijoules - *last_gpu_mj_;
    if (!smallest_gpu_step_mj_ || step < *smallest_gpu_step_mj_) smallest_gpu_step_mj_ = step;
  }
  last_gpu_mj_ = millijoules;
  return static_cast<double>(*millijoules) * 1e-3;
}

void EnvironmentObserver::benchmark_started(const std::optional<std::array<unsigned char, 16>>& gpu_uuid) {
  benchmark_finished();
  active_ = true;
  gpu_benchmark_ = gpu_uuid.has_value();
  device_ = nullptr;
  gpu_unavailable_.clear();
  last_gpu_mj_.reset();
  smallest_gpu_step_mj_.reset();
  gpu_group_open_ = false;
  gpu_group_runs_ = 0;
  gpu_group_samples_ = 0;
  if (gpu_benchmark_) {
    if (!nvml_) nvml_ = std::make_unique<NvmlSession>();
    unsigned char bytes[16];
    std::copy(gpu_uuid->begin(), gpu_uuid->end(), bytes);
    device_ = nvml_->device(nvml_uuid(bytes), gpu_unavailable_);
    if (device_) {
      std::string why;
      if (nvml_->total_energy_mj(device_, why)) {
        // The counter's unit until a step is seen (benchmark_finished puts the measured one in).
        gpu_tally_.emplace(kNvmlEnergy, 1e-3);
      } else {
        gpu_unavailable_ = why;
      }
      NvmlSession* nvml = nvml_.get();
      NvmlDevice* device = device_;
      sampler_ = std::make_unique<ClockSampler>(
          [nvml, device] {
            return ClockReading{nvml->sm_clock_mhz(device), nvml->memory_clock_mhz(device),
                                nvml->clock_event_reasons(device)};
          },
          options_.clock_period);
      sampler_->start();
    }
  }
  powercap_ = std::make_unique<PowercapMeter>(options_.powercap_root);
  if (powercap_->unavailable().empty()) cpu_tally_.emplace(powercap_->source(), 1e-6);
}

void EnvironmentObserver::sample_started() {
  const double now = wall_seconds();
  if (gpu_tally_ && !gpu_group_open_) {
    gpu_tally_->before(gpu_joules(), now);
    gpu_group_open_ = true;
    gpu_group_start_ = now;
  }
  if (cpu_tally_) cpu_tally_->before(powercap_->joules(), now);
}

void EnvironmentObserver::sample_finished(std::int64_t runs) {
  const double now = wall_seconds();
  if (gpu_tally_ && gpu_group_open_) {
    gpu_group_runs_ += runs;
    ++gpu_group_samples_;
    if (now - gpu_group_start_ >= options_.energy_group_seconds) close_gpu_group(now);
  }
  if (cpu_tally_) cpu_tally_->after(powercap_->joules(), now, runs);
}

void EnvironmentObserver::close_gpu_group(double now) {
  gpu_tally_->after(gpu_joules(), now, gpu_group_runs_, gpu_group_samples_);
  gpu_group_open_ = false;
  gpu_group_runs_ = 0;
  gpu_group_samples_ = 0;
}

// The sampler's latest reading: the warm-up asks once per sample, and an NVML call can take ms.
std::optional<double> EnvironmentObserver::sm_clock_mhz() {
  if (!sampler_) return std::nullopt;
  const auto reading = sampler_->latest();
  if (!reading || !reading->sm_mhz) return std::nullopt;
  return static_cast<double>(*reading->sm_mhz);
}

detail::Observations EnvironmentObserver::benchmark_finished() {
  detail::Observations seen;
  if (!active_) return seen;
  active_ = false;
  // The last group ends with the last sample: finish() follows the measurement at once.
  if (gpu_tally_ && gpu_group_open_ && gpu_group_runs_ > 0) close_gpu_group(wall_seconds());
  if (gpu_benchmark_) {
    seen.gpu_energy = gpu_tally_ ? gpu_tally_->result() : energy_unavailable(kNvmlEnergy, gpu_unavailable_);
    if (gpu_tally_ && smallest_gpu_step_mj_) {
      seen.gpu_energy->resolution_joules = static_cast<double>(*smallest_gpu_step_mj_) * 1e-3;
    }
    if (sampler_) {
      const double period = std::chrono::duration<double>(options_.clock_period).count();
      seen.clocks = summarize_clocks(sampler_->stop(), period);
    } else {
      detail::ClockObservation none;
      none.unavailable = gpu_unavailable_;
      seen.clocks = none;
    }
  }
  seen.cpu_energy = cpu_tally_ ? cpu_tally_->result() : energy_unavailable("RAPL (powercap)", powercap_->unavailable());
  gpu_tally_.reset();
  cpu_tally_.reset();
  sampler_.reset();
  return seen;
}

}  // namespace gbx

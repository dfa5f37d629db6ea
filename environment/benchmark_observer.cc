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
  if (gpu_tally_) gpu_tally_->before(gpu_joules(), now);
  if (cpu_tally_) cpu_tally_->before(powercap_->joules(), now);
}

void EnvironmentObserver::sample_finished(std::int64_t runs) {
  const double now = wall_seconds();
  if (gpu_tally_) gpu_tally_->after(gpu_joules(), now, runs);
  if (cpu_tally_) cpu_tally_->after(powercap_->joules(), now, runs);
}

std::optional<double> EnvironmentObserver::sm_clock_mhz() {
  if (!device_) return std::nullopt;
  const auto mhz = nvml_->sm_clock_mhz(device_);
  return mhz ? std::optional<double>(*mhz) : std::nullopt;
}

detail::Observations EnvironmentObserver::benchmark_finished() {
  detail::Observations seen;
  if (!active_) return seen;
  active_ = false;
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

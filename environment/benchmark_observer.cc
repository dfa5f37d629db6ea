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

void EnvironmentObserver::benchmark_started(const std::optional<std::array<unsigned char, 16>>& gpu_uuid) {
  benchmark_finished();
  active_ = true;
  gpu_benchmark_ = gpu_uuid.has_value();
  device_ = nullptr;
  gpu_unavailable_.clear();
  gpu_energy_ = false;
  gpu_span_ = SampleSpan{};
  if (gpu_benchmark_) {
    if (!nvml_) nvml_ = std::make_unique<NvmlSession>();
    unsigned char bytes[16];
    std::copy(gpu_uuid->begin(), gpu_uuid->end(), bytes);
    device_ = nvml_->device(nvml_uuid(bytes), gpu_unavailable_);
    if (device_) {
      std::string why;
      gpu_energy_ = nvml_->total_energy_mj(device_, why).has_value();  // once per benchmark, for the reason
      if (!gpu_energy_) gpu_unavailable_ = why;
      NvmlSession* nvml = nvml_.get();
      NvmlDevice* device = device_;
      ClockSampler::ReadCounter counter;
      if (gpu_energy_) {
        counter = [nvml, device]() -> std::optional<double> {
          std::string ignored;
          const auto millijoules = nvml->total_energy_mj(device, ignored);
          if (!millijoules) return std::nullopt;
          return static_cast<double>(*millijoules) * 1e-3;
        };
      }
      sampler_ = std::make_unique<ClockSampler>(
          [nvml, device] {
            return ClockReading{nvml->sm_clock_mhz(device), nvml->memory_clock_mhz(device),
                                nvml->clock_event_reasons(device)};
          },
          options_.clock_period, std::move(counter));
      sampler_->start();
    }
  }
  powercap_ = std::make_unique<PowercapMeter>(options_.powercap_root);
  if (powercap_->unavailable().empty()) cpu_tally_.emplace(powercap_->source(), 1e-6);
}

// Only the wall clock (and sysfs, for RAPL): the GPU's counter is read on the sampler's thread.
void EnvironmentObserver::sample_started() {
  const double now = wall_seconds();
  sample_start_ = now;
  if (cpu_tally_) cpu_tally_->before(powercap_->joules(), now);
}

void EnvironmentObserver::sample_finished(std::int64_t runs) {
  const double now = wall_seconds();
  if (gpu_energy_) gpu_span_.add(sample_start_, now, runs);
  if (cpu_tally_) cpu_tally_->after(powercap_->joules(), now, runs);
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
  if (gpu_benchmark_) {
    if (sampler_) {
      // stop() reads the counter once more: the reading after the last sample's end.
      const double period = std::chrono::duration<double>(options_.clock_period).count();
      seen.clocks = summarize_clocks(sampler_->stop(), period);
    } else {
      detail::ClockObservation none;
      none.unavailable = gpu_unavailable_;
      seen.clocks = none;
    }
    seen.gpu_energy = gpu_energy_ ? span_energy(kNvmlEnergy, sampler_->take_counter_readings(), gpu_span_, 1e-3)
                                  : energy_unavailable(kNvmlEnergy, gpu_unavailable_);
  }
  seen.cpu_energy = cpu_tally_ ? cpu_tally_->result() : energy_unavailable("RAPL (powercap)", powercap_->unavailable());
  cpu_tally_.reset();
  sampler_.reset();
  return seen;
}

}  // namespace gbx

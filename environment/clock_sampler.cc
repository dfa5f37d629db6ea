#include "environment/clock_sampler.h"

#include <algorithm>
#include <utility>

#include "environment/nvml.h"

namespace gbx {

ClockSampler::ClockSampler(Read read, std::chrono::microseconds period) : read_(std::move(read)), period_(period) {}

ClockSampler::~ClockSampler() {
  if (thread_.joinable()) stop();
}

void ClockSampler::start() {
  if (thread_.joinable()) stop();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = false;
    readings_.clear();
    readings_.push_back(read_());
  }
  thread_ = std::thread([this] { loop(); });
}

void ClockSampler::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  auto next = std::chrono::steady_clock::now() + period_;
  while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
    lock.unlock();
    ClockReading reading = read_();  // NVML's call may take tens of microseconds: not under the lock
    lock.lock();
    readings_.push_back(reading);
    // A fixed rate, not a fixed gap: a slow reading does not push the later ones back.
    next += period_;
    const auto now = std::chrono::steady_clock::now();
    if (next < now) next = now + period_;
  }
}

std::vector<ClockReading> ClockSampler::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  readings_.push_back(read_());
  return std::exchange(readings_, {});
}

std::optional<ClockReading> ClockSampler::latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (readings_.empty()) return std::nullopt;
  return readings_.back();
}

detail::ClockObservation summarize_clocks(const std::vector<ClockReading>& readings, double period_seconds) {
  detail::ClockObservation o;
  o.readings = static_cast<std::int64_t>(readings.size());
  o.period_seconds = period_seconds;
  double sm_sum = 0.0;
  std::int64_t sm_count = 0;
  bool any_read = false;
  for (const auto& r : readings) {
    any_read = any_read || r.sm_mhz || r.memory_mhz || r.reasons;
    if (r.sm_mhz) {
      const double mhz = *r.sm_mhz;
      o.sm_mhz_min = std::min(o.sm_mhz_min.value_or(mhz), mhz);
      o.sm_mhz_max = std::max(o.sm_mhz_max.value_or(mhz), mhz);
      sm_sum += mhz;
      ++sm_count;
    }
    if (r.memory_mhz) {
      const double mhz = *r.memory_mhz;
      o.memory_mhz_min = std::min(o.memory_mhz_min.value_or(mhz), mhz);
      o.memory_mhz_max = std::max(o.memory_mhz_max.value_or(mhz), mhz);
    }
    if (r.reasons) {
      o.throttle_mask |= *r.reasons;
      if (*r.reasons & kThermalReasons) ++o.thermal_readings;
      if (*r.reasons & kPowerReasons) ++o.power_readings;
    }
  }
  for (const auto& name : throttle_reason_names(o.throttle_mask)) o.throttle_reasons.push_back(name.get<std::string>());
  if (sm_count > 0) o.sm_mhz_mean = sm_sum / static_cast<double>(sm_count);
  if (o.sm_mhz_max && *o.sm_mhz_max > 0.0) {
    o.clock_changed = (*o.sm_mhz_max - *o.sm_mhz_min) / *o.sm_mhz_max > detail::kClockChangeTolerance;
  }
  if (!any_read) {
    o.unavailable = "no reading of the clocks succeeded";
  }
  return o;
}

}  // namespace gbx

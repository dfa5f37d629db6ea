#include "environment/clock_sampler.h"

#include <algorithm>
#include <utility>

#include "environment/nvml.h"

namespace gbx {

ClockSampler::ClockSampler(Read read, std::chrono::microseconds period, ReadCounter counter)
    : read_(std::move(read)), period_(period), counter_(std::move(counter)) {}

ClockSampler::~ClockSampler() {
  if (thread_.joinable()) stop();
}

void ClockSampler::start() {
  if (thread_.joinable()) stop();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = false;
    readings_.clear();
    counter_readings_.clear();
    readings_.push_back(read_());
    if (auto counter = read_counter()) counter_readings_.push_back(*counter);
  }
  thread_ = std::thread([this] { loop(); });
}

void ClockSampler::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  auto next = std::chrono::steady_clock::now() + period_;
  while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
    lock.unlock();
    ClockReading reading = read_();  // NVML's calls may take milliseconds: not under the lock
    const std::optional<CounterReading> counter = read_counter();
    lock.lock();
    readings_.push_back(reading);
    if (counter) counter_readings_.push_back(*counter);
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
  if (auto counter = read_counter()) counter_readings_.push_back(*counter);
  return std::exchange(readings_, {});
}

std::vector<CounterReading> ClockSampler::take_counter_readings() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(counter_readings_, {});
}

std::optional<CounterReading> ClockSampler::read_counter() const {
  if (!counter_) return std::nullopt;
  const auto before = std::chrono::steady_clock::now();
  const std::optional<double> joules = counter_();
  const auto after = std::chrono::steady_clock::now();
  if (!joules) return std::nullopt;
  // Stamped at the call's middle: the call may take milliseconds, but the counter moves every 0.1 s.
  const auto middle = before + (after - before) / 2;
  return CounterReading{std::chrono::duration<double>(middle.time_since_epoch()).count(), *joules};
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

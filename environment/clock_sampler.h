#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "environment/energy_tally.h"
#include "model/observations.h"

namespace gbx {

// One reading of a GPU's clocks and clock-event (throttle) reasons; what could not be read is empty.
struct ClockReading {
  std::optional<unsigned> sm_mhz;
  std::optional<unsigned> memory_mhz;
  std::optional<unsigned long long> reasons;
};

// Reads clocks, and optionally a cumulative energy counter, on a thread of its own at a fixed rate
// between start() and stop(), so that a benchmark's clocks are known for the benchmark and not only
// for the run. The counter is read here rather than around each sample because one NVML call took
// 3.5 ms on an H200 VM (docs/energy.md). The thread sleeps between readings;
// bench/clock_sampler_overhead.cc measures what it costs the benchmark.
class ClockSampler {
 public:
  using Read = std::function<ClockReading()>;
  using ReadCounter = std::function<std::optional<double>()>;  // joules; empty when it failed

  ClockSampler(Read read, std::chrono::microseconds period, ReadCounter counter = nullptr);
  ~ClockSampler();
  ClockSampler(const ClockSampler&) = delete;
  ClockSampler& operator=(const ClockSampler&) = delete;

  // Takes a first reading at once, then one per period.
  void start();
  // Takes a last reading, stops the thread and returns every reading, in order.
  std::vector<ClockReading> stop();
  // The latest reading, without waiting; empty before start().
  std::optional<ClockReading> latest() const;
  // The counter's readings since start(), in order, each stamped with the steady clock; after stop().
  std::vector<CounterReading> take_counter_readings();

 private:
  void loop();
  std::optional<CounterReading> read_counter() const;

  Read read_;
  std::chrono::microseconds period_;
  ReadCounter counter_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<ClockReading> readings_;
  std::vector<CounterReading> counter_readings_;
  std::thread thread_;
};

// Clocks' range and mean, the reasons seen, and whether the SM clock changed.
detail::ClockObservation summarize_clocks(const std::vector<ClockReading>& readings, double period_seconds);

}  // namespace gbx

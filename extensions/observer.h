#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "model/observations.h"

namespace gbx {

// Watches each benchmark from outside its timing: energy counters around each sample, clocks on
// a thread of its own. The measurement layer knows only this interface; the environment layer
// (environment/benchmark_observer.h) implements it with NVML and RAPL, and the driver installs it.
class BenchmarkObserver {
 public:
  virtual ~BenchmarkObserver() = default;
  // gpu_uuid: CUDA's 16 UUID bytes of the benchmark's device; absent for CPU benchmarks.
  virtual void benchmark_started(const std::optional<std::array<unsigned char, 16>>& gpu_uuid) = 0;
  virtual void sample_started() = 0;
  virtual void sample_finished(std::int64_t runs) = 0;
  // The device's SM clock now, for warm-up's steady-state check; absent without one.
  virtual std::optional<double> sm_clock_mhz() = 0;
  // Ends the benchmark's observation (stopping any thread) and says what was seen.
  virtual detail::Observations benchmark_finished() = 0;
};

// The observer every fixture reports to; null (the default) for none.
void set_benchmark_observer(std::shared_ptr<BenchmarkObserver> observer);
BenchmarkObserver* benchmark_observer();

}  // namespace gbx

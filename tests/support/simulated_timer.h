#pragma once

#include <cstdint>
#include <functional>
#include <random>

#include "extensions/timer.h"

namespace gbx_test {

// A timer for tests (test-only: not in the shipped library): each simulated run lasts a duration drawn from a known
// distribution. Time only passes through run(), so now_seconds() doubles as a deterministic wall clock.
class SimulatedTimer final : public gbx::detail::Timer {
 public:
  using Draw = std::function<double(std::mt19937_64&)>;

  SimulatedTimer(Draw draw, std::uint64_t seed, double resolution_seconds = 1e-9);

  static SimulatedTimer constant(double seconds, double resolution_seconds = 1e-9);
  static SimulatedTimer normal(double mean, double stddev, std::uint64_t seed);
  static SimulatedTimer lognormal(double median, double sigma, std::uint64_t seed);

  // One simulated run of the kernel: advances the clock by one draw.
  void run();
  // Advances the clock without a run, as untimed work (a flush, say) would.
  void advance(double seconds);
  double now_seconds() const { return now_; }
  std::int64_t runs() const { return runs_; }

  void start() override;
  void stop() override;
  double elapsed_seconds() override;
  double resolution_seconds() const override { return resolution_; }
  gbx::detail::TimerKind kind() const override { return gbx::detail::TimerKind::simulated; }

 private:
  Draw draw_;
  std::mt19937_64 rng_;
  double resolution_;
  double now_ = 0.0;
  double start_ = 0.0;
  double stop_ = 0.0;
  std::int64_t runs_ = 0;
};

}  // namespace gbx_test

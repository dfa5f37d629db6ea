#include "tests/support/simulated_timer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace gbx_test {

SimulatedTimer::SimulatedTimer(Draw draw, std::uint64_t seed, double resolution_seconds)
    : draw_(std::move(draw)), rng_(seed), resolution_(resolution_seconds) {
  if (!draw_) throw std::invalid_argument("SimulatedTimer needs a distribution");
  if (!(resolution_seconds > 0.0)) throw std::invalid_argument("SimulatedTimer resolution must be > 0");
}

SimulatedTimer SimulatedTimer::constant(double seconds, double resolution_seconds) {
  return SimulatedTimer([seconds](std::mt19937_64&) { return seconds; }, 0, resolution_seconds);
}

SimulatedTimer SimulatedTimer::normal(double mean, double stddev, std::uint64_t seed) {
  return SimulatedTimer(
      [dist = std::normal_distribution<double>(mean, stddev)](std::mt19937_64& rng) mutable {
        // A run cannot take negative time; clamping keeps far tails from breaking the clock.
        return std::max(0.0, dist(rng));
      },
      seed);
}

SimulatedTimer SimulatedTimer::lognormal(double median, double sigma, std::uint64_t seed) {
  return SimulatedTimer([dist = std::lognormal_distribution<double>(std::log(median), sigma)](
                            std::mt19937_64& rng) mutable { return dist(rng); },
                        seed);
}

void SimulatedTimer::run() {
  now_ += draw_(rng_);
  ++runs_;
}

void SimulatedTimer::advance(double seconds) { now_ += seconds; }

void SimulatedTimer::start() { start_ = now_; }

void SimulatedTimer::stop() { stop_ = now_; }

double SimulatedTimer::elapsed_seconds() {
  const double elapsed = stop_ - start_;
  // Quantise like a real timer: intervals below the resolution read as whole ticks.
  return std::floor(elapsed / resolution_ + 0.5) * resolution_;
}

}  // namespace gbx_test

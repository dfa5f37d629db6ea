#include "extensions/measurement.h"

#include "model/interrupt.h"
#include "stats/statistics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gbx::detail {

namespace {

constexpr std::int64_t kMaxBatch = std::int64_t{1} << 30;
constexpr int kMaxCalibrationRounds = 16;

double timed_batch(Timer& timer, const MeasurementHooks& hooks, std::int64_t batch) {
  timer.start();
  for (std::int64_t i = 0; i < batch; ++i) hooks.run();
  timer.stop();
  return timer.elapsed_seconds();
}

// The batch with which max_samples samples can span --gbx_min_time, a quarter to spare for noise (the
// gaps between samples only add to the span); 1 when there is no least span or it is already in reach.
std::int64_t batch_to_span(const Protocol& protocol, double seconds_per_run) {
  if (!(protocol.min_time_seconds > 0.0) || !(seconds_per_run > 0.0)) return 1;
  const double needed =
      std::ceil(1.25 * protocol.min_time_seconds / (static_cast<double>(protocol.max_samples) * seconds_per_run));
  return static_cast<std::int64_t>(std::clamp(needed, 1.0, static_cast<double>(kMaxBatch)));
}

}  // namespace

std::int64_t choose_batch(double seconds_per_run, double resolution_seconds, double factor) {
  if (!(resolution_seconds > 0.0)) throw std::invalid_argument("timer resolution must be > 0");
  if (!(seconds_per_run > 0.0)) return kMaxBatch;
  // The quotient of exact multiples can land a rounding error above an integer (100 * 1 ns / 100 ns
  // = 1.0000000000000002): shave a relative epsilon before the ceiling.
  const double needed = std::ceil(factor * resolution_seconds / seconds_per_run * (1.0 - 1e-12));
  return static_cast<std::int64_t>(std::clamp(needed, 1.0, static_cast<double>(kMaxBatch)));
}

Measurement measure(const Protocol& protocol, Timer& timer, const MeasurementHooks& hooks) {
  if (!hooks.run || !hooks.now_seconds) throw std::invalid_argument("measure() needs run and now_seconds hooks");
  const bool cold = protocol.cache == CacheMode::cold;
  if (cold && !hooks.flush) throw std::invalid_argument("cold cache mode needs a flush hook");

  Measurement m;
  m.timer = timer.kind();
  m.cache = protocol.cache;
  m.timer_resolution_seconds = timer.resolution_seconds();
  const double target = protocol.batch_resolution_factor * m.timer_resolution_seconds;
  const double start = hooks.now_seconds();
  const auto out_of_time = [&] { return hooks.now_seconds() - start >= protocol.max_time_seconds; };
  const auto check_interrupt = [&] {
    if (hooks.interrupted && hooks.interrupted()) throw Interrupted();
  };

  if (protocol.warmup_auto) {
    m.warmup = warm_up_until_steady(protocol, timer, hooks, out_of_time);
    m.warmup_runs = m.warmup.runs;
  } else {
    for (; m.warmup_runs < protocol.warmup_runs && !out_of_time(); ++m.warmup_runs) {
      check_interrupt();
      hooks.run();
    }
    m.warmup.runs = m.warmup_runs;
  }

  // Cold samples are single runs: in a batch every run after the first would find the cache warm.
  if (!cold) {
    double seconds_per_run = 0.0;
    for (int round = 0; round < kMaxCalibrationRounds && !out_of_time(); ++round) {
      check_interrupt();
      const double elapsed = timed_batch(timer, hooks, m.batch);
      m.calibration_runs += m.batch;
      seconds_per_run = elapsed / static_cast<double>(m.batch);
      if (elapsed >= target || m.batch == kMaxBatch) break;
      // Aim 20% past the target so that noise rarely leaves a sample short of it.
      const std::int64_t next = elapsed > 0.0 ? choose_batch(seconds_per_run, m.timer_resolution_seconds,
                                                             1.2 * protocol.batch_resolution_factor)
                                              : m.batch * 10;
      m.batch = std::min(kMaxBatch, std::max(next, m.batch + 1));
    }
    m.batch = std::max(m.batch, batch_to_span(protocol, seconds_per_run));
  }

  double cpu_in_samples = 0.0;
  double first_sample_start = 0.0;
  double last_sample_end = 0.0;
  const auto span_short = [&] { return last_sample_end - first_sample_start < protocol.min_time_seconds; };
  const auto done = [&] {
    const auto n = static_cast<std::int64_t>(m.samples.size());
    if (n >= protocol.max_samples) {
      m.sample_bound_reached = static_cast<bool>(hooks.enough) || span_short();
      return true;
    }
    if (n < protocol.min_samples || span_short()) return false;
    if (!hooks.enough) return true;
    const std::int64_t interval = std::max<std::int64_t>(1, hooks.check_interval);
    m.enough_reached = (n - protocol.min_samples) % interval == 0 && hooks.enough(m.samples);
    return m.enough_reached;
  };
  m.samples.reserve(static_cast<std::size_t>(std::min<std::int64_t>(protocol.max_samples, 1 << 16)));
  const double cpu_at_sampling_start = hooks.cpu_seconds ? hooks.cpu_seconds() : 0.0;
  while (!done()) {
    check_interrupt();
    // At least one sample is always taken, so that even an over-long warm-up yields a result.
    if (!m.samples.empty() && out_of_time()) {
      m.time_bound_reached = true;
      break;
    }
    if (cold) {
      hooks.flush();
      ++m.flushes;
    }
    // Reading the process CPU clock is a system call: bracket each sample only when a flush
    // must be left out, and otherwise the whole loop once.
    const double cpu_before = cold && hooks.cpu_seconds ? hooks.cpu_seconds() : 0.0;
    if (m.samples.empty()) first_sample_start = hooks.now_seconds();
    if (hooks.sample_started) hooks.sample_started();
    const double elapsed = timed_batch(timer, hooks, m.batch);
    if (hooks.sample_finished) hooks.sample_finished(m.batch);
    last_sample_end = hooks.now_seconds();
    if (cold && hooks.cpu_seconds) cpu_in_samples += hooks.cpu_seconds() - cpu_before;
    m.samples.push_back(elapsed / static_cast<double>(m.batch));
  }
  if (!cold && hooks.cpu_seconds) cpu_in_samples = hooks.cpu_seconds() - cpu_at_sampling_start;

  const double runs = static_cast<double>(m.samples.size()) * static_cast<double>(m.batch);
  m.cpu_seconds_per_run = runs > 0.0 ? cpu_in_samples / runs : 0.0;
  if (cold && !m.samples.empty()) m.below_resolution = median(m.samples).value_or(0.0) < target;
  m.sampling_seconds = last_sample_end - first_sample_start;
  m.wall_seconds = hooks.now_seconds() - start;
  return m;
}

}  // namespace gbx::detail

// The timers themselves: what CUDA events and %globaltimer resolve, what a launch costs, and whether a
// kernel of known duration reads as that duration, unbatched and through the fixture's timer.
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "bench/device_probe.h"
#include "bench/device_probe_kernels.cuh"
#include "bench/device_probe_timing.h"
#include "extensions/cpu_timer.h"
#include "extensions/device_array.h"
#include "extensions/measurement.h"

namespace gbx_probe {

namespace {

// The smallest step between distinct elapsed times, over spins of 0 to 4 us in 10 ns steps: the
// quantum cudaEventElapsedTime reports in.
double event_quantum_seconds(cudaStream_t stream) {
  std::set<std::int64_t> distinct_ns;
  for (int i = 0; i <= 400; ++i) {
    const auto ns = 10 * static_cast<std::uint64_t>(i);
    for (const double s : event_seconds(
             stream, [&] { gbx::launch_spin_for(ns, stream); }, 1, true)) {
      distinct_ns.insert(std::llround(s * 1e9));
    }
  }
  std::int64_t step = 0;
  for (auto it = distinct_ns.begin(); it != distinct_ns.end() && std::next(it) != distinct_ns.end(); ++it) {
    const std::int64_t gap = *std::next(it) - *it;
    if (gap > 0 && (step == 0 || gap < step)) step = gap;
  }
  return static_cast<double>(step) * 1e-9;
}

}  // namespace

void probe_timers(ProbeResult& result) {
  ProbeStream stream;
  const cudaStream_t s = stream.get();
  const double quantum = event_quantum_seconds(s);
  result.figures.push_back(checked("CUDA event resolution", quantum * 1e6, "us",
                                   "> 0 and <= 0.5 us (gbx assumes 0.5 us: its batch target is 100 of them)",
                                   quantum > 0.0 && quantum <= 0.5e-6,
                                   "smallest step between distinct elapsed times over 401 spins of 0-4 us"));

  constexpr int kDeltas = 4096;
  gbx::DeviceArray<std::uint64_t> deltas(kDeltas + 1);
  launch_global_timer_deltas(deltas.data(), kDeltas, s);
  GBX_CUDA_CHECK(cudaStreamSynchronize(s));
  const std::vector<std::uint64_t> host = deltas.to_host(s);
  const auto seen = static_cast<std::size_t>(host[kDeltas]);
  std::vector<double> steps(host.begin(), host.begin() + static_cast<std::ptrdiff_t>(seen));
  const double tick = steps.empty() ? 0.0 : *std::min_element(steps.begin(), steps.end());
  const double typical = median_of(steps);
  result.figures.push_back(checked("%globaltimer tick (smallest change)", tick * 1e-3, "us",
                                   "> 0 and <= 1 us (the spin kernels read it)", tick > 0.0 && tick <= 1000.0,
                                   std::to_string(seen) + " changes seen by one thread"));
  result.figures.push_back(checked("%globaltimer update (median change)", typical * 1e-3, "us",
                                   "> 0 and <= 1 us: a spin of t overshoots by up to one update",
                                   typical > 0.0 && typical <= 1000.0));

  // Launch latency, three ways: the host's cost of enqueueing, a launch and wait, and what a start
  // event on an idle stream adds to an empty kernel compared with one behind the pre-roll.
  constexpr int kLaunches = 2000;
  launch_empty(s);
  GBX_CUDA_CHECK(cudaStreamSynchronize(s));
  const double t0 = gbx::steady_now_seconds();
  for (int i = 0; i < kLaunches; ++i) launch_empty(s);
  const double enqueue = (gbx::steady_now_seconds() - t0) / kLaunches;
  GBX_CUDA_CHECK(cudaStreamSynchronize(s));
  result.figures.push_back(checked("launch: host enqueue cost per kernel", enqueue * 1e6, "us", "> 0 and <= 20 us",
                                   enqueue > 0.0 && enqueue <= 20e-6, "2000 empty kernels enqueued back to back"));
  std::vector<double> round_trips;
  for (int i = 0; i < 200; ++i) {
    const double start = gbx::steady_now_seconds();
    launch_empty(s);
    GBX_CUDA_CHECK(cudaStreamSynchronize(s));
    round_trips.push_back(gbx::steady_now_seconds() - start);
  }
  const double round_trip = median_of(round_trips);
  result.figures.push_back(checked("launch: launch and wait (host clock)", round_trip * 1e6, "us", "> 0 and <= 100 us",
                                   round_trip > 0.0 && round_trip <= 100e-6, "median of 200"));
  const double idle = median_event_seconds(
      s, [&] { launch_empty(s); }, 200, false);
  const double busy = median_event_seconds(
      s, [&] { launch_empty(s); }, 200, true);
  result.figures.push_back(checked("launch: empty kernel between events, idle stream", idle * 1e6, "us",
                                   "above the pre-rolled figure: the launch latency an idle start event adds",
                                   idle >= busy, "median of 200; what every hot sample included before the pre-roll"));
  result.figures.push_back(checked("launch: empty kernel between events, behind the pre-roll", busy * 1e6, "us",
                                   "> 0 and <= 5 us: a kernel's own start and exit", busy > 0.0 && busy <= 5e-6,
                                   "median of 200"));
}

void probe_known_duration(ProbeResult& result) {
  ProbeStream stream;
  const cudaStream_t s = stream.get();
  for (const double seconds : {50e-6, 2e-3}) {
    const auto ns = static_cast<std::uint64_t>(seconds * 1e9);
    const auto spin = [&] { gbx::launch_spin_for(ns, s); };
    const std::string label = std::to_string(static_cast<int>(seconds * 1e6)) + " us spin";
    const double idle = median_event_seconds(s, spin, 41, false);
    const double pre_rolled = median_event_seconds(s, spin, 41, true);
    result.figures.push_back(checked(label + ", unbatched, idle stream: measured / nominal", idle / seconds, "x",
                                     "(the old bias) above the pre-rolled ratio", idle >= pre_rolled));
    result.figures.push_back(checked(label + ", unbatched, behind the pre-roll: measured / nominal",
                                     pre_rolled / seconds, "x", "within [0.99, 1.01] + 0.5 us",
                                     std::abs(pre_rolled - seconds) <= 0.01 * seconds + 0.5e-6));
  }
  // Through the fixture's timer and measurement loop, hot. A batch of back-to-back kernels also
  // holds the gap between one kernel's end and the next one's start, which an empty kernel's
  // per-run time measures; a 10 us spin (batched: the target is 50 us) must read as its duration
  // plus that gap, and a 200 us spin (one run per sample) as its duration, each within 1%.
  const auto through_fixture = [&](const std::function<void()>& run, std::int64_t& batch) {
    gbx::detail::Protocol protocol;
    protocol.warmup_runs = 5;
    protocol.min_samples = 41;
    gbx::CudaEventTimer timer(s);
    gbx::detail::MeasurementHooks hooks;
    hooks.run = run;
    hooks.now_seconds = gbx::steady_now_seconds;
    const gbx::detail::Measurement m = gbx::detail::measure(protocol, timer, hooks);
    batch = m.batch;
    return median_of(m.samples);
  };
  std::int64_t batch = 0;
  const double gap = through_fixture([&] { launch_empty(s); }, batch);
  result.figures.push_back(
      checked("back-to-back kernel gap through the fixture (empty kernel, batch " + std::to_string(batch) + ")",
              gap * 1e6, "us", "> 0 and <= 5 us", gap > 0.0 && gap <= 5e-6));
  for (const double seconds : {10e-6, 200e-6}) {
    const auto ns = static_cast<std::uint64_t>(seconds * 1e9);
    const double measured = through_fixture([&] { gbx::launch_spin_for(ns, s); }, batch);
    // Batched, the gap lies between 0 (the device runs the next kernel at once) and an empty
    // kernel's per-run time (which the host's launch rate may set).
    const double upper = batch > 1 ? seconds + gap : seconds;
    result.figures.push_back(
        checked(std::to_string(static_cast<int>(seconds * 1e6)) + " us spin through the fixture (hot, batch " +
                    std::to_string(batch) + "): measured / nominal",
                measured / seconds, "x", batch > 1 ? "within [0.99, 1.01 x (1 + gap / spin)]" : "within [0.99, 1.01]",
                measured >= 0.99 * seconds && measured <= 1.01 * upper,
                "gbx::measure with CudaEventTimer, as CudaFixture times"));
  }
}

}  // namespace gbx_probe

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
  const double typical = gbx::median(steps).value_or(0.0);
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
  const double round_trip = gbx::median(round_trips).value_or(0.0);
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
  result.kernel_start_exit_seconds = busy;
}

void probe_known_duration(ProbeResult& result) {
  ProbeStream stream;
  const cudaStream_t s = stream.get();
  // A kernel between two events includes its own start and exit, a constant the spin's nominal
  // length does not hold: allowed above, as an empty kernel behind the pre-roll measured it.
  const double start_exit = result.kernel_start_exit_seconds;
  for (const double seconds : {50e-6, 2e-3}) {
    const auto ns = static_cast<std::uint64_t>(seconds * 1e9);
    const auto spin = [&] { gbx::launch_spin_for(ns, s); };
    const std::string label = std::to_string(static_cast<int>(seconds * 1e6)) + " us spin";
    const double idle = median_event_seconds(s, spin, 41, false);
    const double pre_rolled = median_event_seconds(s, spin, 41, true);
    result.figures.push_back(checked(label + ", unbatched, idle stream: measured / nominal", idle / seconds, "x",
                                     "(the old bias) above the pre-rolled ratio", idle >= pre_rolled));
    const double low = 0.99 * seconds - 0.5e-6;
    const double high = 1.01 * seconds + 0.5e-6 + start_exit;
    result.figures.push_back(
        checked(label + ", unbatched, behind the pre-roll: measured / nominal", pre_rolled / seconds, "x",
                "within [" + number(low / seconds) + ", " + number(high / seconds) +
                    "]: [0.99, 1.01], 0.5 us either way, and " + number(start_exit * 1e6) +
                    " us more above: a kernel between events includes its own start and exit, as measured by an "
                    "empty kernel behind the pre-roll",
                pre_rolled >= low && pre_rolled <= high));
  }
  // Through the fixture's timer and measurement loop, hot. Each run in a sample adds the gap
  // between kernels that an empty kernel's per-run time measures: between one kernel's end and the
  // next one's start in a batch, and a lone kernel's own start and exit. So a 10 us spin (batched:
  // the target is 50 us) and a 200 us spin (one run per sample) each read as their duration plus
  // at most that gap, within 1% (and at least 0.99 of it: batched, the next kernel may start at once).
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
    return gbx::median(m.samples).value_or(0.0);
  };
  std::int64_t batch = 0;
  const double gap = through_fixture([&] { launch_empty(s); }, batch);
  result.figures.push_back(
      checked("back-to-back kernel gap through the fixture (empty kernel, batch " + std::to_string(batch) + ")",
              gap * 1e6, "us", "> 0 and <= 5 us", gap > 0.0 && gap <= 5e-6));
  for (const double seconds : {10e-6, 200e-6}) {
    const auto ns = static_cast<std::uint64_t>(seconds * 1e9);
    const double measured = through_fixture([&] { gbx::launch_spin_for(ns, s); }, batch);
    const double upper = 1.01 * (seconds + gap);
    result.figures.push_back(checked(
        std::to_string(static_cast<int>(seconds * 1e6)) + " us spin through the fixture (hot, batch " +
            std::to_string(batch) + "): measured / nominal",
        measured / seconds, "x",
        "within [0.99, 1.01 x (1 + gap / spin)] = [0.99, " + number(upper / seconds) + "], the gap " +
            number(gap * 1e6) + " us (the back-to-back gap above: a kernel's start and exit per run)",
        measured >= 0.99 * seconds && measured <= upper, "gbx::measure with CudaEventTimer, as CudaFixture times"));
  }
}

}  // namespace gbx_probe

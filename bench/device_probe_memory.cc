// Memory: an L2 working-set sweep (hot against flushed reads: where the gap closes, and the L2's
// own read bandwidth, the L2 roof), what the flush costs, and read, write and copy bandwidth of a
// working set far larger than the L2 against the computed DRAM peak.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "bench/device_probe.h"
#include "bench/device_probe_kernels.cuh"
#include "bench/device_probe_timing.h"
#include "environment/peaks.h"
#include "extensions/device_array.h"
#include "extensions/l2_flush.h"

namespace gbx_probe {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kColdOverHot = 1.2;  // a gap this large counts as "the working set fits in L2"
// What one hot launch of the sweep reads in all: a small working set is read in a few us, which a
// kernel's start and exit (2-3 us) would dominate; 2 GiB take some 200 us even at 10 TB/s.
constexpr double kSweepBytesPerLaunch = 2.0 * 1024 * kMiB;

std::string mib(double bytes) { return std::to_string(std::llround(bytes / kMiB)) + " MiB"; }

}  // namespace

void probe_memory(ProbeResult& result) {
  ProbeStream stream;
  const cudaStream_t s = stream.get();
  const gbx::Peak peak = gbx::gpu_peak();
  gbx::L2FlushBuffer l2;
  const double l2_bytes = static_cast<double>(l2.l2_bytes());
  result.device["l2_bytes"] = l2.l2_bytes();
  result.device["peaks"] = gbx::peak_json(peak);

  // The sweep: working sets from 1/16 of the L2 to 4 times it, one buffer big enough for all.
  const std::vector<double> fractions = {0.0625, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.25, 1.5, 2.0, 4.0};
  const auto largest = static_cast<std::size_t>(fractions.back() * l2_bytes / sizeof(float) / 4) * 4;
  gbx::DeviceArray<float> data(largest);
  gbx::DeviceArray<float> out(1);
  GBX_CUDA_CHECK(cudaMemsetAsync(data.data(), 0, data.bytes(), s));
  // Hot: the working set read passes times in one launch, so that the launch's start and exit
  // vanish; above the L2 each pass evicts what the next one needs, and it reads at DRAM speed.
  // Cold: only the first pass after a flush is cold, so one pass, less an empty kernel's start and
  // exit (never faster than a hot pass).
  const double start_exit = result.kernel_start_exit_seconds;
  double gap_closes_at = 0.0;
  double l2_roof = 0.0;
  for (const double fraction : fractions) {
    const auto n = static_cast<std::size_t>(fraction * l2_bytes / sizeof(float) / 4) * 4;
    const double bytes = static_cast<double>(n) * sizeof(float);
    const int passes = std::max(1, static_cast<int>(std::ceil(kSweepBytesPerLaunch / bytes)));
    const auto hot_read = [&] { launch_read_passes(data.data(), n, passes, out.data(), s); };
    hot_read();  // leaves the working set in L2 as far as it fits
    const double hot = median_event_seconds(s, hot_read, 9, true) / passes;
    const double cold_launch = median_event_seconds(
        s, [&] { launch_read_passes(data.data(), n, 1, out.data(), s); }, 9, true, [&] { l2.flush(s); });
    const double cold = std::max(cold_launch - start_exit, hot);
    const double ratio = cold / hot;
    if (ratio >= kColdOverHot) gap_closes_at = bytes;
    if (fraction <= 0.5) l2_roof = std::max(l2_roof, bytes / hot);
    result.l2_sweep.push_back({{"working_set_bytes", bytes},
                               {"of_l2", fraction},
                               {"hot_passes", passes},
                               {"hot_bytes_per_second", bytes / hot},
                               {"cold_bytes_per_second", bytes / cold},
                               {"cold_launch_seconds", cold_launch},
                               {"cold_over_hot", ratio}});
  }
  const double dram = peak.bytes_per_second.value_or(0.0);
  result.figures.push_back(
      checked("L2 read bandwidth (hot, working sets up to half the L2): the L2 roof", l2_roof / 1e12, "TB/s",
              "above the DRAM peak (" + std::to_string(dram / 1e12) + " TB/s)", dram > 0.0 && l2_roof > dram,
              "the most any working set up to L2/2 read, each launch reading >= 2 GiB"));
  const auto l2_fact = std::find_if(peak.roofs.begin(), peak.roofs.end(),
                                    [](const gbx::BandwidthRoof& roof) { return roof.level == "L2"; });
  if (l2_fact != peak.roofs.end()) {
    result.figures.push_back(checked("L2 read bandwidth, fraction of the L2 roof from facts",
                                     l2_roof / l2_fact->bytes_per_second, "x", "<= 1 (" + l2_fact->source + ")",
                                     l2_roof <= l2_fact->bytes_per_second));
  } else {
    result.figures.push_back(not_measured("L2 read bandwidth, fraction of the L2 roof from facts", "x", "<= 1",
                                          "gbx has no L2 roof for this architecture"));
  }
  result.figures.push_back(checked("largest working set read >= 1.2x faster hot than flushed", gap_closes_at / kMiB,
                                   "MiB",
                                   "between 1/4 and 2 times the L2 (" + mib(l2_bytes) + "); cold: one pass less " +
                                       number(start_exit * 1e6) + " us, a kernel's start and exit",
                                   gap_closes_at >= 0.25 * l2_bytes && gap_closes_at <= 2.0 * l2_bytes,
                                   "hot: re-read, many passes per launch; cold: one pass after L2FlushBuffer::flush, "
                                   "less an empty kernel's start and exit"));
  const double flush = median_event_seconds(
      s, [&] { l2.flush(s); }, 9, true);
  result.figures.push_back(checked("L2 flush: time per flush", flush * 1e6, "us",
                                   "its " + mib(static_cast<double>(l2.bytes())) + " read at most at the DRAM peak",
                                   dram > 0.0 && static_cast<double>(l2.bytes()) / flush <= 1.05 * dram,
                                   "a read pass over twice the L2; outside every cold sample's timed region"));

  // DRAM: 1 GiB per buffer, 16 times the largest L2 of any current GPU.
  constexpr std::size_t kDramFloats = std::size_t(1) << 28;
  gbx::DeviceArray<float> a(kDramFloats);
  gbx::DeviceArray<float> b(kDramFloats);
  GBX_CUDA_CHECK(cudaMemsetAsync(a.data(), 0, a.bytes(), s));
  GBX_CUDA_CHECK(cudaMemsetAsync(b.data(), 0, b.bytes(), s));
  const double bytes = static_cast<double>(a.bytes());
  struct Pass {
    const char* name;
    double traffic;
    std::function<void()> run;
  };
  const std::vector<Pass> passes = {
      {"read", bytes, [&] { launch_read(a.data(), kDramFloats, out.data(), s); }},
      {"write", bytes, [&] { launch_write(a.data(), kDramFloats, s); }},
      {"copy (read + write)", 2 * bytes, [&] { launch_copy(b.data(), a.data(), kDramFloats, s); }},
  };
  for (const Pass& pass : passes) {
    pass.run();
    const double rate = pass.traffic / median_event_seconds(s, pass.run, 9, true);
    if (dram > 0.0) {
      result.figures.push_back(checked(std::string("DRAM ") + pass.name + " bandwidth, fraction of the computed peak",
                                       rate / dram, "x", "<= 1 (at the DRAM roof); 0.7-0.95 is typical",
                                       rate / dram <= 1.0, std::to_string(rate / 1e12) + " TB/s over 1 GiB"));
    } else {
      result.figures.push_back(not_measured(std::string("DRAM ") + pass.name + " bandwidth, fraction of the peak", "x",
                                            "<= 1", "no DRAM peak: " + peak.unavailable));
    }
  }
}

}  // namespace gbx_probe

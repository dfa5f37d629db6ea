#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "environment/cpu_facts.h"
#include "model/peak.h"

namespace gbx {

// The CPU's theoretical peak from facts: cores allowed x max clock x FMA pipes x lanes x 2 for
// FLOP/s; per-level bandwidth roofs from the vector width and the cache sizes; DRAM and any figure
// whose facts are unknown from the calibration, marked calibrated. The calibration stands beside.
// Where the facts cannot give the cache levels' roofs (the clock or the vector width unknown),
// calibrated_cache_roofs (calibrate_cache_roofs) stand in for them, so that a working set held in
// a cache is not judged against the DRAM roof alone.
Peak cpu_peak_from_facts(const CpuFacts& facts, const Peak& calibrated,
                         const std::vector<BandwidthRoof>& calibrated_cache_roofs = {});
// Whether cpu_peak_from_facts can compute the cache levels' roofs from these facts.
bool cache_roofs_from_facts(const CpuFacts& facts);
// The same for this machine: read_cpu_facts() and calibrate_cpu_peak(), and calibrate_cache_roofs()
// when the facts give no cache roofs.
Peak machine_cpu_peak();

// A roof per cache level, measured, as the Empirical Roofline Toolkit does: on every thread at
// once, each thread copies within a working set of half its share of one instance of the level
// (memcpy, repeated; best of 3 rounds), so that the copy is held in that level and not the one
// below. Measured roofs are not upper bounds: a benchmark may come near one, or a little past it.
std::vector<BandwidthRoof> calibrate_cache_roofs(const std::vector<CacheLevel>& caches, unsigned threads);

// CPU: a short calibration on all cores of a copy larger than the last-level cache, and of
// independent multiply-add chains in fp32 and fp64, as this build compiles them.
Peak calibrate_cpu_peak();

// What a GPU's peaks are computed from: its name, compute capability and device attributes.
struct GpuFacts {
  std::string name;  // as the runtime reports it, e.g. "NVIDIA H200"
  int major = 0;
  int minor = 0;
  int sms = 0;
  double max_clock_hz = 0.0;     // cudaDevAttrClockRate: the highest SM clock
  double memory_clock_hz = 0.0;  // cudaDevAttrMemoryClockRate
  int bus_bits = 0;              // cudaDevAttrGlobalMemoryBusWidth
  std::int64_t l2_bytes = 0;     // cudaDevAttrL2CacheSize
};

// GPU: bandwidth from the memory clock and bus width (two transfers per clock), FLOP/s from the
// SM count, a clock, and a per-architecture table of FLOP per SM per clock for each precision.
// Roofs: L2 (capacity the L2's size, l2_bytes_per_clock at the highest SM clock) where the table
// knows the architecture, then DRAM, so that a working set held in L2 is judged against the L2.
// The clock is the highest SM clock, except for the tf32, fp16 and bf16 tensor peaks of the SKUs
// for which NVIDIA publishes them at a lower sustained clock (sustained_tensor_clock_hz).
Peak gpu_peak(const GpuFacts& facts);
// The same for the current device; unavailable, with the reason, without one.
Peak gpu_peak();

// The whole L2's read bandwidth in bytes per clock for compute capability major.minor (an upper
// bound), with its source; absent when unknown.
std::optional<std::pair<double, std::string>> l2_bytes_per_clock(int major, int minor);

// FLOP per SM per clock, dense, for compute capability major.minor; absent when unknown.
std::optional<double> flops_per_sm_per_clock(int major, int minor, const std::string& precision);

// The SM clock at which NVIDIA's datasheet states the dense tf32/fp16/bf16 tensor throughput of the
// GPU named name (for example 1830 MHz for H100 and H200 SXM: 989 TFLOP/s bf16 = 4096 x 132 SMs x
// 1.83 GHz), with a description of that figure; absent for GPUs whose datasheet uses the highest clock.
std::optional<PeakClock> sustained_tensor_clock(const std::string& name, int major, int minor);

}  // namespace gbx

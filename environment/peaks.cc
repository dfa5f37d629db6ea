#include "environment/peaks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#ifdef GBX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "extensions/cpu_cache_flush.h"
#include "model/clock.h"

namespace gbx {

namespace {

using Clock = std::chrono::steady_clock;

// Runs body(thread index) on every hardware thread at once; returns the wall time of the slowest.
template <class Body>
double on_all_threads(unsigned threads, Body body) {
  std::vector<std::thread> pool;
  const auto start = Clock::now();
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(body, t);
  for (auto& thread : pool) thread.join();
  return seconds_since(start);
}

// The portable fallback: sixteen independent scalar chains hide the multiply-add latency; the values
// stay bounded (x*a + b with |a| < 1), so no denormals or overflow slow it down. Only as fast as the
// compiler vectorises it, so used only where no SIMD FMA kernel below applies.
template <class T>
double scalar_multiply_add_rate(unsigned threads) {
  constexpr int kChains = 16;
  constexpr long kSteps = 2'000'000;
  std::vector<T> sinks(threads);
  const double seconds = on_all_threads(threads, [&](unsigned t) {
    T acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = static_cast<T>(c) * static_cast<T>(0.001);
    const T a = static_cast<T>(0.999);
    const T b = static_cast<T>(0.001);
    for (long i = 0; i < kSteps; ++i) {
      for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * a + b;
    }
    T sum = 0;
    for (int c = 0; c < kChains; ++c) sum += acc[c];
    sinks[t] = sum;
  });
  volatile T keep = sinks[0];
  (void)keep;
  return 2.0 * kChains * static_cast<double>(kSteps) * threads / seconds;
}

#if defined(__x86_64__) && defined(__GNUC__)
// The peak must bound what tuned libraries reach: OpenBLAS picks its SIMD FMA kernels at run time,
// whatever this build was compiled for, so the calibration does the same. Each kernel runs
// 12 independent FMA chains: enough to cover the latency on two FMA ports, few enough to stay in
// registers (24 AVX-512 chains ran at half speed here: the loop no longer stayed in registers). Each
// returns a sum so nothing is optimised away.
constexpr long kSimdSteps = 1'000'000;

__attribute__((target("avx2,fma"))) double avx2_fp32_chains() {
  __m256 acc[12];
  for (auto& chain : acc) chain = _mm256_set1_ps(0.5f);
  const __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(0.001f);
  for (long i = 0; i < kSimdSteps; ++i)
    for (auto& chain : acc) chain = _mm256_fmadd_ps(chain, a, b);
  alignas(32) float lanes[8];
  double total = 0.0;
  for (const auto& chain : acc) {
    _mm256_store_ps(lanes, chain);
    for (float lane : lanes) total += lane;
  }
  return total;
}

__attribute__((target("avx2,fma"))) double avx2_fp64_chains() {
  __m256d acc[12];
  for (auto& chain : acc) chain = _mm256_set1_pd(0.5);
  const __m256d a = _mm256_set1_pd(0.999), b = _mm256_set1_pd(0.001);
  for (long i = 0; i < kSimdSteps; ++i)
    for (auto& chain : acc) chain = _mm256_fmadd_pd(chain, a, b);
  alignas(32) double lanes[4];
  double total = 0.0;
  for (const auto& chain : acc) {
    _mm256_store_pd(lanes, chain);
    for (double lane : lanes) total += lane;
  }
  return total;
}

__attribute__((target("avx512f"))) double avx512_fp32_chains() {
  __m512 acc[12];
  for (auto& chain : acc) chain = _mm512_set1_ps(0.5f);
  const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(0.001f);
  for (long i = 0; i < kSimdSteps; ++i)
    for (auto& chain : acc) chain = _mm512_fmadd_ps(chain, a, b);
  alignas(64) float lanes[16];
  double total = 0.0;
  for (const auto& chain : acc) {
    _mm512_store_ps(lanes, chain);
    for (float lane : lanes) total += lane;
  }
  return total;
}

__attribute__((target("avx512f"))) double avx512_fp64_chains() {
  __m512d acc[12];
  for (auto& chain : acc) chain = _mm512_set1_pd(0.5);
  const __m512d a = _mm512_set1_pd(0.999), b = _mm512_set1_pd(0.001);
  for (long i = 0; i < kSimdSteps; ++i)
    for (auto& chain : acc) chain = _mm512_fmadd_pd(chain, a, b);
  alignas(64) double lanes[8];
  double total = 0.0;
  for (const auto& chain : acc) {
    _mm512_store_pd(lanes, chain);
    for (double lane : lanes) total += lane;
  }
  return total;
}

// FLOP/s of one kernel run on every thread at once; flops_per_step counts all chains' lanes x 2.
double simd_rate(unsigned threads, double (*chains)(), double flops_per_step) {
  std::vector<double> sinks(threads);
  const double seconds = on_all_threads(threads, [&](unsigned t) { sinks[t] = chains(); });
  volatile double keep = sinks[0];
  (void)keep;
  return flops_per_step * static_cast<double>(kSimdSteps) * threads / seconds;
}
#endif

// The best multiply-add rate this CPU offers, and how it was reached.
template <class T>
double multiply_add_rate(unsigned threads, std::string& how) {
  constexpr bool fp64 = std::is_same_v<T, double>;
  double rate = scalar_multiply_add_rate<T>(threads);
  how = "scalar chains as this build compiles them";
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    const double simd =
        fp64 ? simd_rate(threads, avx2_fp64_chains, 12 * 4 * 2) : simd_rate(threads, avx2_fp32_chains, 12 * 8 * 2);
    if (simd > rate) {
      rate = simd;
      how = "AVX2 FMA chains";
    }
  }
  if (__builtin_cpu_supports("avx512f")) {
    const double simd =
        fp64 ? simd_rate(threads, avx512_fp64_chains, 12 * 8 * 2) : simd_rate(threads, avx512_fp32_chains, 12 * 16 * 2);
    if (simd > rate) {
      rate = simd;
      how = "AVX-512 FMA chains";
    }
  }
#endif
  return rate;
}

double copy_rate(unsigned threads) {
  const std::size_t llc = last_level_cache_bytes();
  const std::size_t per_thread = std::max<std::size_t>(std::size_t{32} << 20, 2 * llc / std::max(1u, threads));
  std::vector<std::vector<char>> from(threads, std::vector<char>(per_thread, 1));
  std::vector<std::vector<char>> to(threads, std::vector<char>(per_thread, 0));
  double best = 0.0;
  for (int round = 0; round < 3; ++round) {
    const double seconds =
        on_all_threads(threads, [&](unsigned t) { std::memcpy(to[t].data(), from[t].data(), per_thread); });
    // A copy reads and writes every byte.
    best = std::max(best, 2.0 * static_cast<double>(per_thread) * threads / seconds);
  }
  return best;
}

}  // namespace

std::vector<BandwidthRoof> calibrate_cache_roofs(const std::vector<CacheLevel>& caches, unsigned threads) {
  threads = std::max(1u, threads);
  std::vector<BandwidthRoof> roofs;
  for (const CacheLevel& cache : caches) {
    if (cache.level < 1 || cache.level > 3 || cache.bytes <= 0) continue;
    // This thread's share of one instance; half of it holds the copy's source and destination.
    const unsigned sharing = std::max(1u, std::min(threads, static_cast<unsigned>(std::max(1, cache.cpus_sharing))));
    const auto working_set = static_cast<std::size_t>(cache.bytes) / sharing / 2;
    const std::size_t half = std::max<std::size_t>(working_set / 2 / 64 * 64, 64);
    // About 32 MiB copied per thread per round: long enough for the steady clock, short at start-up.
    const std::size_t repeats = std::max<std::size_t>(1, (std::size_t{32} << 20) / half);
    std::vector<std::vector<char>> from(threads, std::vector<char>(half, 1));
    std::vector<std::vector<char>> to(threads, std::vector<char>(half, 0));
    // Each thread times its own copies, and the rates add up: a thread the scheduler holds back
    // on a loaded machine then lowers the sum by its own share only.
    double best = 0.0;
    for (int round = 0; round < 5; ++round) {
      std::vector<double> rates(threads, 0.0);
      on_all_threads(threads, [&](unsigned t) {
        const auto start = Clock::now();
        for (std::size_t r = 0; r < repeats; ++r) {
          std::memcpy(to[t].data(), from[t].data(), half);
          // Keeps the copies from being merged or dropped: each one's destination is read back.
          from[t][r % half] = static_cast<char>(to[t][(r * 7) % half] + 1);
        }
        rates[t] = 2.0 * static_cast<double>(half) * static_cast<double>(repeats) / seconds_since(start);
      });
      double sum = 0.0;
      for (const double rate : rates) sum += rate;
      best = std::max(best, sum);
    }
    roofs.push_back({"L" + std::to_string(cache.level), cache.bytes, best,
                     "calibrated: memcpy within " + std::to_string(2 * half / 1024) + " KiB per thread on " +
                         std::to_string(threads) + " threads (best of 5), as no fact gives this level's bandwidth",
                     true});
  }
  return roofs;
}

Peak calibrate_cpu_peak() {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  Peak peak;
  peak.bytes_per_second = copy_rate(threads);
  std::string fp32_how;
  std::string fp64_how;
  peak.flops_per_second["fp32"] = multiply_add_rate<float>(threads, fp32_how);
  peak.flops_per_second["fp64"] = multiply_add_rate<double>(threads, fp64_how);
  peak.method = "calibrated at start-up on " + std::to_string(threads) +
                " threads: memcpy of buffers larger than the last-level cache (best of 3; data held in a cache "
                "can exceed it), and independent multiply-add chains, the best of scalar and the SIMD FMA this CPU "
                "offers (fp32: " +
                fp32_how + "; fp64: " + fp64_how + ")";
  return peak;
}

std::optional<double> flops_per_sm_per_clock(int major, int minor, const std::string& precision) {
  // Dense rates from NVIDIA's architecture whitepapers: CUDA-core FMA lanes x 2 for fp32/fp64,
  // tensor-core rates for fp64_tensor (DMMA) and tf32/fp16/bf16. Checks against datasheets, at the
  // clock each uses: RTX 3090 fp64 0.556 TFLOP/s = 4 x 82 SMs x 1.695 GHz; A100 fp64 tensor
  // 19.5 TFLOP/s = 128 x 108 x 1.41 GHz; H100 SXM fp64 tensor 67 TFLOP/s = 256 x 132 x 1.98 GHz.
  struct Row {
    int major, minor;
    double fp64, fp64_tensor, fp32, tf32, fp16, bf16;
  };
  static const Row table[] = {
      {7, 0, 64, 0, 128, 0, 1024, 0},           // V100
      {7, 5, 4, 0, 128, 0, 1024, 0},            // T4
      {8, 0, 64, 128, 128, 1024, 2048, 2048},   // A100
      {8, 6, 4, 0, 256, 512, 1024, 1024},       // GA10x
      {8, 9, 4, 0, 256, 512, 1024, 1024},       // Ada
      {9, 0, 128, 256, 256, 2048, 4096, 4096},  // H100, H200
  };
  for (const auto& row : table) {
    if (row.major != major || row.minor != minor) continue;
    const double value = precision == "fp64"          ? row.fp64
                         : precision == "fp64_tensor" ? row.fp64_tensor
                         : precision == "fp32"        ? row.fp32
                         : precision == "tf32"        ? row.tf32
                         : precision == "fp16"        ? row.fp16
                         : precision == "bf16"        ? row.bf16
                                                      : 0.0;
    if (value > 0.0) return value;
  }
  return std::nullopt;
}

std::optional<PeakClock> sustained_tensor_clock(const std::string& name, int major, int minor) {
  if (major != 9 || minor != 0) return std::nullopt;
  // Dense bf16 on each datasheet, divided by 4096 FLOP/SM/clock and the SM count. The more specific
  // names first: "H100 NVL" and "H200 NVL" contain "H100" and "H200".
  struct Sku {
    const char* name_part;
    double mhz;
    const char* datasheet;
  };
  static const Sku skus[] = {
      {"H100 NVL", 1545, "H100 NVL: 835 TFLOP/s dense bf16 = 4096 x 132 SMs x 1.545 GHz"},
      {"H200 NVL", 1545, "H200 NVL: 835 TFLOP/s dense bf16 = 4096 x 132 SMs x 1.545 GHz"},
      {"H100 PCIe", 1620, "H100 PCIe: 756 TFLOP/s dense bf16 = 4096 x 114 SMs x 1.62 GHz"},
      {"H100", 1830, "H100 SXM: 989 TFLOP/s dense bf16 = 4096 x 132 SMs x 1.83 GHz"},
      {"H200", 1830, "H200 SXM: 989 TFLOP/s dense bf16 = 4096 x 132 SMs x 1.83 GHz"},
  };
  for (const auto& sku : skus) {
    if (name.find(sku.name_part) == std::string::npos) continue;
    return PeakClock{sku.mhz * 1e6,
                     std::string("NVIDIA's sustained tensor clock for the datasheet's figure (") + sku.datasheet +
                         "), below the highest SM clock",
                     "sustained"};
  }
  return std::nullopt;
}

std::optional<std::pair<double, std::string>> l2_bytes_per_clock(int major, int minor) {
  // NVIDIA's A100 whitepaper (table 3): L2 read bandwidth 5120 bytes/clk for A100, 2048 for V100.
  // NVIDIA publishes none for Hopper; microbenchmarks read H100's L2 at well under 5120 bytes/clk
  // (about 5.5-7 TB/s near 1.8 GHz), so A100's figure stands as its upper bound.
  if (major == 7 && minor == 0) return std::make_pair(2048.0, std::string("V100: 2048 bytes/clk (A100 whitepaper)"));
  if (major == 8 && minor == 0) return std::make_pair(5120.0, std::string("A100: 5120 bytes/clk (A100 whitepaper)"));
  if (major == 9 && minor == 0) {
    return std::make_pair(5120.0, std::string("Hopper: at most A100's 5120 bytes/clk (NVIDIA publishes no figure)"));
  }
  return std::nullopt;
}

Peak gpu_peak(const GpuFacts& facts) {
  Peak peak;
  const auto l2 = l2_bytes_per_clock(facts.major, facts.minor);
  if (l2 && facts.l2_bytes > 0 && facts.max_clock_hz > 0.0) {
    peak.roofs.push_back({"L2", facts.l2_bytes, l2->first * facts.max_clock_hz,
                          l2->second + " x the highest SM clock (cudaDevAttrClockRate)", false});
  }
  if (facts.memory_clock_hz > 0.0 && facts.bus_bits > 0) {
    peak.bytes_per_second = 2.0 * facts.memory_clock_hz * facts.bus_bits / 8.0;
    peak.roofs.push_back({"DRAM", std::nullopt, *peak.bytes_per_second,
                          "2 x memory clock x bus width (cudaDevAttrMemoryClockRate, GlobalMemoryBusWidth)", false});
  }
  peak.flops_basis = "facts";
  const PeakClock highest{facts.max_clock_hz, "the highest SM clock (cudaDevAttrClockRate)", "boost"};
  const std::optional<PeakClock> sustained = sustained_tensor_clock(facts.name, facts.major, facts.minor);
  for (const char* precision : {"fp64", "fp64_tensor", "fp32", "tf32", "fp16", "bf16"}) {
    const auto per_clock = flops_per_sm_per_clock(facts.major, facts.minor, precision);
    if (!per_clock || facts.sms <= 0 || facts.max_clock_hz <= 0.0) continue;
    const std::string name = precision;
    const bool tensor = name == "tf32" || name == "fp16" || name == "bf16";
    const PeakClock& clock = tensor && sustained ? *sustained : highest;
    peak.flops_per_second[name] = *per_clock * facts.sms * clock.hz;
    peak.clocks[name] = clock;
  }
  peak.method = "device attributes of " + facts.name +
                ": 2 x memory clock x bus width; SMs x clock x FLOP/SM/clock for sm_" + std::to_string(facts.major) +
                std::to_string(facts.minor) + " (the clock of each precision under clocks)";
  return peak;
}

Peak gpu_peak() {
  Peak peak;
#ifdef GBX_HAVE_CUDA
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    peak.unavailable = "no usable CUDA device";
    return peak;
  }
  int memory_khz = 0, bus_bits = 0, sms = 0, clock_khz = 0, major = 0, minor = 0, l2_bytes = 0;
  const bool read = cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
                    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess &&
                    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess &&
                    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device) == cudaSuccess &&
                    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
                    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess &&
                    cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device) == cudaSuccess;
  cudaDeviceProp properties{};
  if (!read || cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    peak.unavailable = "the device's attributes could not be read";
    return peak;
  }
  GpuFacts facts;
  facts.name = properties.name;
  facts.major = major;
  facts.minor = minor;
  facts.sms = sms;
  facts.max_clock_hz = clock_khz * 1e3;
  facts.memory_clock_hz = memory_khz * 1e3;
  facts.bus_bits = bus_bits;
  facts.l2_bytes = l2_bytes;
  peak = gpu_peak(facts);
#else
  peak.unavailable = "gbx was built without CUDA";
#endif
  return peak;
}

}  // namespace gbx

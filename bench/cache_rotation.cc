// What --gbx_cache=rotate buys: one kernel whose data fits in the cache (a copy of 64 KiB into
// another 64 KiB, bound by bandwidth), measured hot, rotated and cold in one process, with the medians, the batches and
// the bytes that rotation cycled against the cache. Rotation should be slower than hot (its data comes from memory)
// and, unlike cold, batched.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>

#include <gbx/gbx.h>

#include "model/protocol.h"
#include "reporters/gbx_reporter.h"
#include "stats/statistics.h"

namespace {

constexpr std::int64_t kCount = std::int64_t{1} << 14;

void copy(gbx::State& state) {
  auto &x = state.fill_random(state.host_array<float>(kCount)), &y = state.host_array<float>(kCount);
  state.declare_bytes_per_run(static_cast<double>(x.bytes() + y.bytes()));
  state.exec([&] {
    std::copy(x.begin(), x.end(), y.begin());
    benchmark::DoNotOptimize(y.data);
  });
}
GBX_BENCH(copy, "rotation/copy");

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  gbx::detail::register_short_benchmarks({});
  std::printf("cache modes, kernel: copy of %lld floats (%lld KiB)\n", static_cast<long long>(kCount),
              static_cast<long long>(kCount * 4 / 1024));
  double hot = 0.0;
  for (const gbx::detail::CacheMode mode :
       {gbx::detail::CacheMode::hot, gbx::detail::CacheMode::rotate, gbx::detail::CacheMode::cold}) {
    gbx::detail::Protocol protocol;
    protocol.min_samples = 30;
    protocol.cache = mode;
    gbx::detail::set_active_protocol(protocol);
    gbx::GbxReporter reporter(nullptr, nullptr);
    const std::size_t before = gbx::SampleChannel::global().records().size();
    benchmark::RunSpecifiedBenchmarks(&reporter);
    const auto& records = gbx::SampleChannel::global().records();
    if (records.size() == before || records.back().measurement.samples.empty()) {
      std::fprintf(stderr, "cache_rotation: the %s run measured nothing\n", gbx::detail::to_string(mode));
      return 1;
    }
    const gbx::detail::Measurement& m = records.back().measurement;
    const double median = *gbx::median(m.samples);
    if (mode == gbx::detail::CacheMode::hot) hot = median;
    std::printf("  %-6s median %8.4g us, batch %lld, ratio to hot %.2f", gbx::detail::to_string(m.cache), median * 1e6,
                static_cast<long long>(m.batch), median / hot);
    if (m.rotation_copies > 0) {
      std::printf(", %lld copies of %.0f KiB cycled against a %.0f MiB cache",
                  static_cast<long long>(m.rotation_copies), m.rotation_bytes_per_run / 1024.0,
                  m.rotation_cache_bytes / 1048576.0);
    }
    std::printf("\n");
  }
  benchmark::Shutdown();
  return 0;
}

// Writes a sealed gbx record of many benchmarks with many samples each, for measuring the report's
// memory at scale (issue 13 item 8):
//   report_scale_record BENCHMARKS SAMPLES OUT.json [SEED] [PROCESSES] [SLOWER]
// Deterministic for a seed; each run (seed) shifts the medians a little, so that reports over
// several records compare and trend as real ones would. PROCESSES (default 1) splits each benchmark's
// samples into that many processes (gbx.process_samples), so that a comparison can call a change; the
// first SLOWER benchmarks (default 0) are 20% slower, a regression for the comparison to find.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "tests/report/records.h"

int main(int argc, char** argv) {
  if (argc < 4 || argc > 7) {
    std::fprintf(stderr, "usage: report_scale_record BENCHMARKS SAMPLES OUT.json [SEED] [PROCESSES] [SLOWER]\n");
    return 2;
  }
  const auto benchmarks = std::strtoul(argv[1], nullptr, 10);
  const auto samples = std::strtoul(argv[2], nullptr, 10);
  const unsigned seed = argc >= 5 ? static_cast<unsigned>(std::strtoul(argv[4], nullptr, 10)) : 1U;
  const auto processes = argc >= 6 ? std::strtoul(argv[5], nullptr, 10) : 1UL;
  const auto slower = argc >= 7 ? std::strtoul(argv[6], nullptr, 10) : 0UL;
  if (benchmarks == 0 || samples < 2 || processes == 0 || processes > samples) {
    std::fprintf(stderr, "report_scale_record: BENCHMARKS must be >= 1, SAMPLES >= 2 and PROCESSES in [1, SAMPLES]\n");
    return 2;
  }
  std::mt19937_64 random(seed);
  std::lognormal_distribution<double> noise(0.0, 0.05);
  std::vector<report_test::Entry> entries;
  entries.reserve(benchmarks);
  for (unsigned long b = 0; b < benchmarks; ++b) {
    // Ten variants per problem, so that the Pareto analysis has groups to draw.
    const std::string problem = "scale/n=" + std::to_string(b / 10);
    const std::string variant = "v" + std::to_string(b % 10);
    std::vector<double> values(samples);
    const double center = 1e-6 * static_cast<double>(1 + b % 97) * (1.0 + 0.01 * static_cast<double>(seed % 5)) *
                          (b < slower ? 1.2 : 1.0);
    for (auto& value : values) value = center * noise(random);
    entries.push_back(
        report_test::entry("BM_scale/" + std::to_string(b / 10) + "/" + variant, problem, variant, std::move(values)));
    entries.back().error = 1e-7 * static_cast<double>(1 + b % 10);
    entries.back().memory = 4096.0 * static_cast<double>(1 + (b * 7) % 10);
    entries.back().processes = processes;
  }
  // One minute per seed, so that a history of many records sorts by seed.
  char created[32];
  std::snprintf(created, sizeof created, "2026-12-01T%02u:%02u:00Z", (seed / 60) % 24, seed % 60);
  std::ofstream out(argv[3]);
  out << report_test::gbx_record(entries, "scale-" + std::to_string(seed), created).dump();
  if (!out) {
    std::fprintf(stderr, "report_scale_record: %s: cannot write\n", argv[3]);
    return 2;
  }
  return 0;
}

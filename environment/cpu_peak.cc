// The CPU's peak from facts (environment/cpu_facts.h), with the calibration beside it.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "environment/peaks.h"

namespace gbx {

namespace {

std::string gigas(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value / 1e9);
  return text;
}

std::string level_name(int level) { return "L" + std::to_string(level); }

}  // namespace

bool cache_roofs_from_facts(const CpuFacts& facts) {
  const int cores = facts.physical_cores_allowed.value_or(facts.logical_cpus_allowed);
  return (facts.isa == "avx512" || facts.isa == "avx2") && facts.max_hz && cores > 0;
}

Peak cpu_peak_from_facts(const CpuFacts& facts, const Peak& calibrated,
                         const std::vector<BandwidthRoof>& calibrated_cache_roofs) {
  Peak peak;
  peak.facts = cpu_facts_json(facts);
  peak.calibrated_flops_per_second = calibrated.flops_per_second;
  peak.calibrated_bytes_per_second = calibrated.bytes_per_second;
  const int cores = facts.physical_cores_allowed.value_or(facts.logical_cpus_allowed);
  const bool wide = facts.isa == "avx512" || facts.isa == "avx2";
  const int isa_bits = facts.isa == "avx512" ? 512 : 256;
  const std::string clock = facts.max_hz ? gigas(*facts.max_hz) + " GHz (" + facts.max_hz_source + ")" : "";

  std::string flops_how;
  if (facts.fma && wide && facts.max_hz && cores > 0) {
    // A 512-bit instruction on 256-bit pipes takes both: the width that counts is the narrower.
    const int width = std::min(isa_bits, facts.fma->width_bits);
    const double fp64_per_cycle = facts.fma->units * (width / 64.0) * 2.0;
    peak.flops_per_second["fp64"] = fp64_per_cycle * cores * *facts.max_hz;
    peak.flops_per_second["fp32"] = 2.0 * peak.flops_per_second["fp64"];
    peak.flops_basis = "facts";
    flops_how = std::to_string(cores) + " cores x " + clock + " x " + std::to_string(facts.fma->units) + " FMA x " +
                std::to_string(width) + "-bit (" + facts.fma->microarchitecture + ") x 2";
    if (!facts.fma->note.empty()) flops_how += "; " + facts.fma->note;
  } else {
    peak.flops_per_second = calibrated.flops_per_second;
    peak.flops_basis = "calibrated";
    std::string missing;
    for (const auto& [fact, why] : facts.unknown) {
      if (fact == "fma" || fact == "isa" || fact == "max_hz") missing += (missing.empty() ? "" : "; ") + why;
    }
    flops_how = "calibrated, as facts are unknown (" + missing + ")";
  }

  if (!cache_roofs_from_facts(facts)) {
    peak.roofs = calibrated_cache_roofs;
    // A level nearer the core is never slower than the one below it: a measured roof that reads
    // lower (noise, a loaded machine) is raised to the next one's, DRAM's included.
    double below = calibrated.bytes_per_second.value_or(0.0);
    for (auto roof = peak.roofs.rbegin(); roof != peak.roofs.rend(); ++roof) {
      if (roof->bytes_per_second < below) {
        roof->bytes_per_second = below;
        roof->source += "; raised to the level below's, which read faster";
      }
      below = roof->bytes_per_second;
    }
  } else {
    // Nominal per-core rates: two loads and one store of the vector width per cycle into L1 (Haswell
    // and Zen 2 on), one 64-byte line per cycle from L2, half a line from L3. Upper bounds.
    const int access_bytes = std::min(isa_bits, facts.fma ? facts.fma->width_bits : isa_bits) / 8;
    const double per_cycle_all_cores = cores * *facts.max_hz;
    for (const auto& cache : facts.caches) {
      double bytes_per_cycle = 0.0;
      std::string source;
      if (cache.level == 1) {
        bytes_per_cycle = 3.0 * access_bytes;
        source = "2 loads + 1 store of " + std::to_string(access_bytes) + " bytes per cycle";
      } else if (cache.level == 2) {
        bytes_per_cycle = 64.0;
        source = "one 64-byte line per cycle";
      } else if (cache.level == 3) {
        bytes_per_cycle = 32.0;
        source = "half a 64-byte line per cycle";
      } else {
        continue;
      }
      source.append(" x ").append(std::to_string(cores)).append(" cores x ").append(clock);
      peak.roofs.push_back(
          {level_name(cache.level), cache.bytes, bytes_per_cycle * per_cycle_all_cores, std::move(source), false});
    }
  }
  if (calibrated.bytes_per_second) {
    peak.roofs.push_back({"DRAM", std::nullopt, *calibrated.bytes_per_second,
                          "calibrated: memcpy of buffers larger than the last-level cache at start-up (no fact "
                          "gives the memory's channels and speed without root)",
                          true});
    peak.bytes_per_second = calibrated.bytes_per_second;
  }
  peak.method = "FLOP/s: " + flops_how + ". Bandwidth: a roof per level, the working set picks it (roofs). Beside " +
                "them, under calibrated: " + calibrated.method;
  return peak;
}

Peak machine_cpu_peak() {
  const CpuFacts facts = read_cpu_facts();
  const Peak calibrated = calibrate_cpu_peak();
  if (cache_roofs_from_facts(facts)) return cpu_peak_from_facts(facts, calibrated);
  const unsigned threads = static_cast<unsigned>(std::max(1, facts.logical_cpus_allowed));
  return cpu_peak_from_facts(facts, calibrated, calibrate_cache_roofs(facts.caches, threads));
}

}  // namespace gbx

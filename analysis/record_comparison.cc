#include "analysis/record_comparison.h"

#include <algorithm>
#include <string>
#include <vector>

#include "stats/bootstrap.h"
#include "stats/comparison.h"
#include "text/benchmark_name.h"
#include "text/format.h"

namespace gbx::tools {

namespace {

// Run-level facts that must match for a comparison to mean anything, as JSON pointers into the
// record; each is compared only when both records have it (docs/gating.md lists them).
struct GateField {
  const char* label;
  const char* pointer;
  bool major_only;  // compare the part before the first '.'
};

const GateField kGate[] = {
    {"GPU model", "/gbx/environment/gpus/0/name", false},
    {"GPU driver major version", "/gbx/environment/gpus/0/driver_version", true},
    {"CUDA runtime", "/gbx/environment/gpus/0/runtime_version", false},
    {"cuBLAS version", "/gbx/environment/build/cublas", false},
    {"Google Benchmark version", "/gbx/environment/build/google_benchmark", false},
    {"Boost version", "/gbx/environment/build/boost", false},
    {"OpenBLAS version", "/gbx/environment/build/openblas", false},
    {"CUDA toolkit", "/gbx/environment/build/cuda_toolkit", false},
    // The program's own build (a Debug build against a Release one measures the compiler, not the
    // change), then gbx's, whose measurement loop the timings go through.
    {"build type", "/gbx/environment/build/build_type", false},
    {"optimisation level", "/gbx/environment/build/optimization", false},
    {"compiled with optimisation", "/gbx/environment/build/optimized", false},
    {"compiler", "/gbx/environment/build/compiler", false},
    {"gbx's build type", "/gbx/environment/build/gbx/build_type", false},
    {"virtual machine", "/gbx/environment/host/virtualization/guest", false},
    {"protocol: cache", "/gbx/protocol/cache", false},
    {"protocol: warm-up runs", "/gbx/protocol/warmup_runs", false},
    {"protocol: warm-up mode", "/gbx/protocol/warmup", false},
    {"protocol: batch target (timer resolutions)", "/gbx/protocol/batch_resolution_factor", false},
};

std::optional<std::string> fact(const nlohmann::json& record, const GateField& field) {
  const nlohmann::json::json_pointer pointer(field.pointer);
  if (!record.contains(pointer) || record[pointer].is_null()) return std::nullopt;
  const auto& value = record[pointer];
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (field.major_only) text = text.substr(0, text.find('.'));
  return text;
}

// The clock flags on the record's entries named name, e.g. "throttled_power, clock_changed".
std::string clock_flags(const nlohmann::json& record, const std::string& name) {
  std::vector<std::string> found;
  const auto benchmarks = record.value("benchmarks", nlohmann::json::array());
  for (const auto& entry : benchmarks) {
    if (!entry.is_object() || entry.value("name", "") != name) continue;
    const auto gbx = entry.value("gbx", nlohmann::json::object());
    for (const auto& flag : gbx.value("flags", nlohmann::json::array())) {
      const std::string what = flag.is_object() ? flag.value("flag", "") : "";
      const bool clock = what == "throttled_thermal" || what == "throttled_power" || what == "clock_changed";
      if (clock && std::find(found.begin(), found.end(), what) == found.end()) found.push_back(what);
    }
  }
  std::string text;
  for (const auto& f : found) text += (text.empty() ? "" : ", ") + f;
  return text;
}

std::string p_text(double p) { return p < 0.001 ? "p < 0.001" : "p = " + format_fixed(p, 3); }

// "the base record", "the candidate record" or "both records": the sides with one process.
std::string single_process_sides(const ComparisonEvidence& e) {
  if (e.base_processes < 2 && e.candidate_processes < 2) return "both records have";
  return e.base_processes < 2 ? "the base record has" : "the candidate record has";
}

std::string timing_sentence(const ComparisonRow& row, double band) {
  std::string s;
  const ComparisonEvidence& e = row.evidence;
  if (row.verdict == Verdict::insufficient) {
    s += "insufficient: " + std::to_string(e.base_samples) + " base and " + std::to_string(e.candidate_samples) +
         " candidate samples, fewer than " + std::to_string(kMinSamplesPerSide) +
         " on a side, support no verdict; rerun with a larger --gbx_max_time or --gbx_min_samples";
    return row.incompatible ? s + " [INCOMPATIBLE records: not a sound comparison]" : s;
  }
  if (!row.ratio) return s + "no ratio (a median is not positive)";
  const RatioInterval& r = *row.ratio;
  std::string ratio = "ratio " + format_fixed(r.ratio, 3) + " [" + format_fixed(r.lower, 3) + ", " +
                      format_fixed(r.upper, 3) + "] " + format_fixed(100.0 * r.level, 0) + "% CI, " +
                      p_text(row.adjusted_p) + " (BH-adjusted)";
  if (e.process_level()) {
    ratio += ", " + std::to_string(e.base_processes) + " vs " + std::to_string(e.candidate_processes) + " processes";
  }
  const std::string direction =
      r.ratio >= 1.0 ? format_percent(r.ratio - 1.0) + " slower" : format_percent(1.0 - r.ratio) + " faster";
  switch (row.verdict) {
    case Verdict::faster:
    case Verdict::slower:
      s += direction + ", ";
      break;
    case Verdict::same:
      s += "the same within +/-" + format_percent(band) + ", ";
      break;
    case Verdict::inconclusive:
      s += "inconclusive, ";
      break;
    case Verdict::unreplicated:
      s += "unreplicated: " + direction + " within one process, ";
      break;
    case Verdict::insufficient:
      break;
  }
  s += ratio;
  if (row.verdict == Verdict::unreplicated) {
    s += "; but " + single_process_sides(e) +
         " one process, so the variation between processes was not measured and this may be machine noise: run "
         "both sides with --gbx_processes=10, or gbx ab --processes 10, to tell";
  } else if (!e.process_level()) {
    s += " (within one process)";
  }
  if (row.incompatible) s += " [INCOMPATIBLE records: not a sound comparison]";
  if (!row.throttled.empty() && (row.verdict == Verdict::faster || row.verdict == Verdict::slower)) {
    s += " [THROTTLED (" + row.throttled +
         "): the clocks changed under the benchmark, so the difference may be the "
         "GPU's, not the code's]";
  }
  return s;
}

std::string sentence_for(const ComparisonRow& row, double band) {
  return with_accuracy(row.label, timing_sentence(row, band), row.base_accuracy_failure,
                       row.candidate_accuracy_failure);
}

std::size_t processes_with_samples(const LoadedBenchmark& b) {
  return static_cast<std::size_t>(std::count_if(b.process_samples.begin(), b.process_samples.end(),
                                                [](const std::vector<double>& g) { return !g.empty(); }));
}

// What pairs a base row with a candidate row: the family, the variant and the axes' values when the
// row has axes, so that a sweep matches point by point however its name was spelled; else the name.
std::string match_key(const LoadedBenchmark& b) {
  if (b.axes.empty()) return b.name;
  const auto head = [](const std::string& text) { return text.substr(0, text.find('/')); };
  return head(b.problem) + "/" + head(b.variant) + " " + b.axes;
}

BootstrapResult widened_median(const LoadedBenchmark& b) {
  BootstrapResult result = bootstrap_interval(b.samples, BootstrapStatistic::median);
  if (result.interval) widen_for_resolution(*result.interval, b.resolution_seconds);
  return result;
}
}  // namespace

std::string with_accuracy(const std::string& label, const std::string& timing, const std::string& base_failure,
                          const std::string& candidate_failure) {
  if (candidate_failed_alone(base_failure, candidate_failure)) {
    return label + ": inaccurate: the candidate failed its accuracy check (" + candidate_failure +
           ") where the base passed; its timing: " + timing;
  }
  if (!candidate_failure.empty()) {
    return label + ": " + timing + "; both sides failed their accuracy check (base: " + base_failure +
           "; candidate: " + candidate_failure + ")";
  }
  if (!base_failure.empty()) {
    return label + ": " + timing + "; the base failed its accuracy check (" + base_failure +
           ") and the candidate passed";
  }
  return label + ": " + timing;
}

std::string verdict_text(const ComparisonRow& row) {
  return candidate_inaccurate(row) ? "inaccurate" : to_string(row.verdict);
}

double shown_median(const std::optional<HierarchicalEstimate>& processes, const BootstrapResult& samples) {
  return processes ? processes->median : samples.estimate;
}

std::vector<Difference> gate_differences(const nlohmann::json& base, const nlohmann::json& candidate) {
  std::vector<Difference> differences;
  for (const auto& field : kGate) {
    const auto b = fact(base, field);
    const auto c = fact(candidate, field);
    if (b && c && *b != *c) differences.push_back({field.label, *b, *c});
  }
  return differences;
}

const char* const kFewerFactsNote =
    "fewer facts were available: plain Google Benchmark JSON has no gbx section, so its repetitions serve as "
    "samples and no environment or protocol could be checked";

Comparison compare_loaded(const LoadedRecord& base, const LoadedRecord& candidate, double noise_band, double fdr) {
  Comparison comparison;
  comparison.noise_band = noise_band;
  comparison.fdr = fdr;
  comparison.fewer_facts = !base.has_gbx || !candidate.has_gbx;

  // The gate: run-level facts, then each common benchmark's own.
  comparison.differences = gate_differences(base.json, candidate.json);
  for (const auto& c : candidate.benchmarks) {
    const auto found = std::find_if(base.benchmarks.begin(), base.benchmarks.end(),
                                    [&](const LoadedBenchmark& b) { return match_key(b) == match_key(c); });
    if (found == base.benchmarks.end()) comparison.only_in_candidate.push_back(c.name);
  }
  std::vector<std::pair<const LoadedBenchmark*, const LoadedBenchmark*>> pairs;
  for (const auto& b : base.benchmarks) {
    const auto found = std::find_if(candidate.benchmarks.begin(), candidate.benchmarks.end(),
                                    [&](const LoadedBenchmark& c) { return match_key(c) == match_key(b); });
    if (found == candidate.benchmarks.end()) {
      comparison.only_in_base.push_back(b.name);
      continue;
    }
    pairs.emplace_back(&b, &*found);
    for (const auto& [key, value] : b.protocol) {
      const auto other = found->protocol.find(key);
      if (other != found->protocol.end() && !value.empty() && !other->second.empty() && value != other->second) {
        comparison.differences.push_back({b.name + ": " + key, value, other->second});
      }
    }
  }

  auto& rows = comparison.rows;
  for (const auto& [b, c] : pairs) {
    ComparisonRow row;
    row.name = b->name;
    row.label = shown_benchmark_name(b->name);
    row.base_median = widened_median(*b);
    row.candidate_median = widened_median(*c);
    row.evidence = {b->samples.size(), c->samples.size(), processes_with_samples(*b), processes_with_samples(*c)};
    if (row.evidence.base_processes >= 2)
      row.base_processes = hierarchical_median(b->process_samples, b->resolution_seconds);
    if (row.evidence.candidate_processes >= 2) {
      row.candidate_processes = hierarchical_median(c->process_samples, c->resolution_seconds);
    }
    // The process is the unit when both sides have several; otherwise the samples of one process.
    const auto ratio =
        hierarchical_ratio(b->process_samples, c->process_samples, b->resolution_seconds, c->resolution_seconds);
    if (ratio) {
      row.ratio = ratio->interval;
      row.p_value = ratio->p_value;
      row.test_name = ratio->test;
    }
    row.test = mann_whitney(b->samples, c->samples);
    row.shift = hodges_lehmann_shift(b->samples, c->samples);
    row.delta = cliffs_delta(b->samples, c->samples);
    row.incompatible = !comparison.compatible();
    const std::string base_clocks = clock_flags(base.json, b->name);
    const std::string candidate_clocks = clock_flags(candidate.json, c->name);
    if (!base_clocks.empty()) row.throttled = "base: " + base_clocks;
    if (!candidate_clocks.empty()) {
      row.throttled += std::string(row.throttled.empty() ? "" : "; ") + "candidate: " + candidate_clocks;
    }
    if (b->accuracy_failed) row.base_accuracy_failure = b->failure;
    if (c->accuracy_failed) row.candidate_accuracy_failure = c->failure;
    rows.push_back(std::move(row));
  }
  std::vector<double> p_values;
  p_values.reserve(rows.size());
  for (const auto& row : rows) p_values.push_back(row.p_value);
  const std::vector<double> adjusted = benjamini_hochberg(p_values);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ComparisonRow& row = rows[i];
    row.adjusted_p = adjusted[i];
    const bool few =
        row.evidence.base_samples < kMinSamplesPerSide || row.evidence.candidate_samples < kMinSamplesPerSide;
    if (row.ratio) {
      row.verdict = decide(row.adjusted_p, *row.ratio, row.evidence, noise_band, fdr);
    } else {
      row.verdict = few ? Verdict::insufficient : Verdict::inconclusive;
    }
    row.sentence = sentence_for(row, noise_band);
  }
  return comparison;
}

}  // namespace gbx::tools

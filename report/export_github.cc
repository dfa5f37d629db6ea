#include "report/export_github.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace gbx::tools {

namespace {

struct Unit {
  const char* name;
  double per_si;  // the file's value is the SI value times this
};

// Latency in ns, one of the units the action converts between runs (its normalizeValueByUnit.ts).
Unit unit_of(MetricKind kind) {
  switch (kind) {
    case MetricKind::latency:
      return {"ns", 1e9};
    case MetricKind::flop_rate:
      return {"GFLOP/s", 1e-9};
    case MetricKind::byte_rate:
      return {"GB/s", 1e-9};
    case MetricKind::energy:
      return {"J", 1.0};
    case MetricKind::error:
      return {"rel. L2 error", 1.0};
    case MetricKind::peak_memory:
      return {"bytes", 1.0};
  }
  return {"", 1.0};
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

nlohmann::json entry(const ExportedBenchmark& b, const ExportedMetric& m, const ExportMachine& machine) {
  const Unit unit = unit_of(m.kind);
  const double value = m.value * unit.per_si;
  nlohmann::json e = {{"name", b.name + " - " + metric_slug(m.kind)}, {"unit", unit.name}, {"value", value}};
  std::string extra = m.note;
  if (m.lower && m.upper) {
    const double lower = *m.lower * unit.per_si;
    const double upper = *m.upper * unit.per_si;
    e["range"] = "± " + number(std::max(value - std::min(lower, upper), std::max(lower, upper) - value));
    extra += "\n" + number(m.level * 100) + "% interval [" + number(std::min(lower, upper)) + ", " +
             number(std::max(lower, upper)) + "] " + unit.name + (m.method.empty() ? "" : " (" + m.method + ")");
  }
  extra += "\nbenchmark: " + b.benchmark_name + "\ntestbed: " + machine.testbed();
  if (!machine.commit.empty()) extra += "\ncommit: " + machine.commit + (machine.dirty ? " (dirty)" : "");
  e["extra"] = extra;
  return e;
}

}  // namespace

GithubBenchmarkFiles github_action_benchmark(const std::vector<ExportRun>& runs) {
  const ExportMachine& machine = common_machine(runs);
  GithubBenchmarkFiles files;
  for (const ExportRun& run : runs) {
    for (const ExportedBenchmark& b : run.benchmarks) {
      for (const ExportedMetric& m : b.metrics) {
        (smaller_is_better(m.kind) ? files.smaller_is_better : files.bigger_is_better).push_back(entry(b, m, machine));
      }
    }
  }
  return files;
}

}  // namespace gbx::tools

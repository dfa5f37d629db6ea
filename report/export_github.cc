#include "report/export_github.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <utility>

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
    case MetricKind::item_rate:
      return {"items/s", 1.0};
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

// The lines of `extra` that say where a value comes from.
std::string source(const ExportedBenchmark& b, const ExportMachine& machine) {
  std::string text = "\nbenchmark: " + b.benchmark_name + "\ntestbed: " + machine.testbed();
  if (!machine.commit.empty()) text += "\ncommit: " + machine.commit + (machine.dirty ? " (dirty)" : "");
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
  e["extra"] = extra + source(b, machine);
  return e;
}

// A user counter: no unit gbx knows, and no interval.
nlohmann::json counter_entry(const ExportedBenchmark& b, const ExportedCounter& c, const ExportMachine& machine) {
  const std::string what = b.plain ? "user counter, the median over the samples" : "user counter";
  return {{"name", b.name + " " + c.name}, {"unit", ""}, {"value", c.value}, {"extra", what + source(b, machine)}};
}

}  // namespace

GithubBenchmarkFiles github_action_benchmark(const std::vector<ExportRun>& runs) {
  const ExportMachine& machine = common_machine(runs);
  GithubBenchmarkFiles files;
  std::set<std::string> names;  // the action draws one chart per name: a name twice would mix two series
  const auto add = [&names](nlohmann::json& file, nlohmann::json e, const std::string& path) {
    if (!names.insert(e["name"].get<std::string>()).second) {
      throw ExportError(path + ": two entries would be named '" + e["name"].get<std::string>() +
                        "' (a counter's name after its benchmark's); rename the counter to export it");
    }
    file.push_back(std::move(e));
  };
  for (const ExportRun& run : runs) {
    for (const ExportedBenchmark& b : run.benchmarks) {
      for (const ExportedMetric& m : b.metrics) {
        add(smaller_is_better(m.kind) ? files.smaller_is_better : files.bigger_is_better, entry(b, m, machine),
            run.path);
      }
      // A counter's direction is its author's: the bigger-is-better file, as a counter that moves with
      // the code's speed is most often a rate (Counter::kIsRate) and one per iteration stays constant.
      for (const ExportedCounter& c : b.counters) add(files.bigger_is_better, counter_entry(b, c, machine), run.path);
    }
  }
  return files;
}

}  // namespace gbx::tools

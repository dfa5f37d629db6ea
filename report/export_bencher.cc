#include "report/export_bencher.h"

namespace gbx::tools {

double bencher_value(MetricKind kind, double si_value) {
  return kind == MetricKind::latency ? si_value * 1e9 : si_value;
}

nlohmann::json bencher_metric_format(const std::vector<ExportRun>& runs) {
  common_machine(runs);  // one testbed and commit per upload, no name twice
  nlohmann::json file = nlohmann::json::object();
  for (const ExportRun& run : runs) {
    for (const ExportedBenchmark& b : run.benchmarks) {
      nlohmann::json measures = nlohmann::json::object();
      for (const ExportedMetric& m : b.metrics) {
        nlohmann::json metric = {{"value", bencher_value(m.kind, m.value)}};
        // Both bounds or neither: a lone bound would read as an interval that it is not.
        if (m.lower && m.upper) {
          metric["lower_value"] = bencher_value(m.kind, *m.lower);
          metric["upper_value"] = bencher_value(m.kind, *m.upper);
        }
        measures[metric_slug(m.kind)] = metric;
      }
      file[b.name] = measures;
    }
  }
  return file;
}

}  // namespace gbx::tools

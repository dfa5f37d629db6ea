#include "report/export_bencher.h"

namespace gbx::tools {

double bencher_value(MetricKind kind, double seconds_or_si) {
  return kind == MetricKind::latency ? seconds_or_si * 1e9 : seconds_or_si;
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

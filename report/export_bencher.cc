#include "report/export_bencher.h"

#include <string>

namespace gbx::tools {

namespace {

// A counter is a measure of its own name, so one named as a gbx measure would share its charts and
// thresholds; Bencher's slug is at most 64 characters.
void check_counter_name(const ExportRun& run, const ExportedBenchmark& b, const std::string& counter) {
  std::string fault;
  if (counter.empty() || counter.size() > 64) fault = "is not 1 to 64 characters long, as a Bencher measure's is";
  for (const MetricKind kind :
       {MetricKind::latency, MetricKind::flop_rate, MetricKind::item_rate, MetricKind::byte_rate, MetricKind::energy,
        MetricKind::error, MetricKind::peak_memory}) {
    if (counter == metric_slug(kind)) fault = "is the name of gbx's own measure";
  }
  if (!fault.empty()) {
    throw ExportError(run.path + ": benchmark '" + b.name + "' has a counter '" + counter + "', which " + fault +
                      "; rename the counter to export it to Bencher");
  }
}

}  // namespace

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
      for (const ExportedCounter& c : b.counters) {
        check_counter_name(run, b, c.name);
        measures[c.name] = {{"value", c.value}};
      }
      file[b.name] = measures;
    }
  }
  return file;
}

}  // namespace gbx::tools

#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "report/export_metrics.h"

// Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format): one object keyed
// by benchmark name, each holding one object per measure, {value, lower_value, upper_value}. One file
// carries every measure, smaller- and bigger-is-better alike: Bencher sets the direction on each
// measure's threshold (an upper boundary for latency, a lower one for a rate), not in the file.
// Latency is in nanoseconds, as Bencher's built-in `latency` measure is; the rest in SI units
// (docs/dashboards.md lists them). A user counter is a measure named by the counter, its value alone.
// The testbed and the commit are bencher run's --testbed and --hash.

namespace gbx::tools {

// Throws ExportError when the runs disagree on machine or commit, or repeat a benchmark, or when a
// counter's name is one of gbx's measures or not a Bencher slug's 1 to 64 characters.
nlohmann::json bencher_metric_format(const std::vector<ExportRun>& runs);

// The value in the unit the file uses for the kind: nanoseconds for latency, SI otherwise.
double bencher_value(MetricKind kind, double seconds_or_si);

}  // namespace gbx::tools

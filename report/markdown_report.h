#pragma once

#include <iosfwd>

#include "report/report_model.h"

namespace gbx::tools {

// `gbx report --format=markdown`: per run a header line, the environment, protocol and benchmark
// table; the Pareto fronts with a one-sentence conclusion each; the comparison of two runs; the trend
// over three or more; and, for plain Google Benchmark JSON, the facts it lacks (docs/report.md).
void write_markdown_report(std::ostream& out, const ReportModel& model);

}  // namespace gbx::tools

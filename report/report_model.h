#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/pareto.h"
#include "analysis/record_comparison.h"
#include "record/record_reader.h"
#include "report/iso8601.h"
#include "report/scaling_chart.h"
#include "stats/change_point.h"
#include "text/format.h"

// What `gbx report` shows, computed once from the records and then written as Markdown or HTML
// (docs/report.md). Nothing here formats for one output more than for the other.

namespace gbx::tools {

// A labelled fact for the environment and protocol summaries.
using Fact = std::pair<std::string, std::string>;

struct FlagNote {
  std::string flag;  // outliers, drift, ...
  std::string message;
};

// One benchmark name of one run, its repetitions pooled.
struct BenchmarkRow {
  std::string name;  // the full Google Benchmark name
  std::string problem;
  std::string variant;
  std::string label;  // the name as shown: shown_benchmark_name(name) (text/benchmark_name.h)
  std::string region;
  std::string precision;
  bool skipped = false;  // error_occurred and never measured: why is in skip_reason
  std::string skip_reason;

  std::size_t repetitions = 0;
  std::vector<double> samples;  // seconds per run, every repetition's
  std::size_t count = 0;
  double median = 0.0;
  std::optional<double> median_lower;  // the median's interval at median_level
  std::optional<double> median_upper;
  double median_level = 0.95;
  std::optional<double> cv;
  std::optional<double> p99;

  std::optional<double> rel_l2_error;
  std::optional<bool> accuracy_passed;  // absent: accuracy not checked
  std::optional<double> memory_bytes;
  std::string memory_kind;  // "device peak" or "host peak"
  std::optional<double> gflops;
  std::optional<double> gbytes;
  std::optional<double> arithmetic_intensity;
  std::optional<double> fraction_of_peak;
  std::optional<double> fraction_of_peak_bandwidth;
  std::optional<double> peak_flops;  // per second, as the record names them
  std::optional<double> peak_bytes;
  std::vector<FlagNote> flags;
};

// A benchmark that could not run on the recording machine (gbx.not_run): no CUDA device, say.
struct NotRunRow {
  std::string name;  // Google Benchmark's
  std::string family;
  std::string label;  // the name as shown, as measured rows are
  std::string reason;
  std::string reason_code;  // no_cuda_device, cuda_driver_missing, ... (docs/json-format.md)
};

// The benchmarks of one run that did not run for one reason: "42 CUDA benchmarks not run: no CUDA device".
struct NotRunReason {
  std::string reason;
  std::vector<const NotRunRow*> rows;  // into RunReport::not_run
  bool cuda = false;                   // every one is a CUDA benchmark (its reason_code says so)
  std::string sentence;
};

struct RunReport {
  std::string path;
  std::string label;  // "#1", "#2": the position on the command line, 1-based
  std::string run_id;
  std::string created;                       // gbx.created_utc, else context.date, else empty
  std::optional<std::int64_t> created_unix;  // seconds since the epoch, when `created` parses
  std::string checksum_status;               // "intact", or "none: plain Google Benchmark JSON"
  bool has_gbx = false;
  bool interrupted = false;
  std::vector<Fact> environment;
  std::vector<Fact> protocol;
  std::vector<BenchmarkRow> benchmarks;    // measured ones first, in the record's order, then skipped ones
                                           // (records from before gbx.not_run list those among benchmarks)
  std::vector<NotRunRow> not_run;          // gbx.not_run, in the record's order
  std::vector<std::string> missing_facts;  // what plain Google Benchmark JSON cannot say
};

struct TrendPoint {
  std::size_t run = 0;  // index into ReportModel::runs
  double median = 0.0;
  std::optional<double> lower;
  std::optional<double> upper;
};

// Where a benchmark's median series steps to a new level (stats/change_point.h finds them).
struct TrendChangePoint {
  std::size_t index = 0;         // into TrendSeries::points: the first point of the new segment
  double relative_change = 0.0;  // after / before - 1, of the segments' medians
  double p_value = 1.0;
};

// One benchmark name across the runs that measured it, ordered by date.
struct TrendSeries {
  std::string name;
  std::string label;
  std::vector<TrendPoint> points;
  std::string sentence;  // the change from the first point to the last, and whether the intervals overlap
  std::vector<TrendChangePoint> change_points;  // detected when the series has 3 or more points
};

// The change points of a series' medians, weighing each run's interval (a run without one is exact).
// The report and gbx trend ask the same question with the same defaults, so they give the same answer.
constexpr double kTrendAlpha = 0.05;
constexpr std::uint64_t kTrendSeed = 1;
// A run's not-run benchmarks grouped by reason, in the order the reasons are first met: the one line
// per reason that the console prints too. The rows point into `run`, which must outlive the result.
std::vector<NotRunReason> not_run_reasons(const RunReport& run);

// The flags that the runs' measured rows carry, each once, in the order first met.
std::vector<std::string> flags_present(const std::vector<RunReport>& runs);

// A run's summary counts, as both reports' summaries give them.
struct RowCounts {
  std::size_t measured = 0;
  std::size_t skipped = 0;  // skipped entries of records from before gbx.not_run
  std::size_t failed = 0;   // failed their accuracy check
  std::size_t flagged = 0;
};
RowCounts count_rows(const RunReport& run);

// A comparison's rows by verdict, for the summaries. The undecided ones (inconclusive, unreplicated,
// insufficient) are counted beside slower, faster and same: a summary of "0 slower, 0 faster" over rows
// that could not be decided would hide why gbx compare's gate says it cannot decide (exit 3).
struct VerdictCounts {
  std::size_t slower = 0;
  std::size_t faster = 0;
  std::size_t same = 0;
  std::size_t inconclusive = 0;
  std::size_t unreplicated = 0;
  std::size_t insufficient = 0;
  std::size_t undecided() const { return inconclusive + unreplicated + insufficient; }
};
VerdictCounts count_verdicts(const Comparison& comparison);

// The undecided rows by kind, only the kinds present: "3 unreplicated, 3 insufficient"; "" when none.
std::string undecided_kinds(const VerdictCounts& counts);

// Each kind of undecided row present, its count and why it could not be decided:
// "3 unreplicated (one process on a side, ...), 3 insufficient (fewer than 6 samples on a side)".
std::string undecided_reasons(const VerdictCounts& counts);

// The commit a run was built from: the first word of its "commit" fact ("abc123def456 on main"), or "".
std::string run_commit(const RunReport& run);

std::vector<ChangePoint> series_change_points(const TrendSeries& series, double alpha = kTrendAlpha,
                                              std::uint64_t seed = kTrendSeed);

// A problem's load sweep charts (report/load_chart.h), Vega-Lite specs; a null spec is not drawn.
struct LoadCharts {
  std::string problem;
  nlohmann::json latency_throughput;
  nlohmann::json p99_offered_load;
};

struct ReportModel {
  std::vector<RunReport> runs;           // command-line order
  std::optional<Comparison> comparison;  // exactly two runs: the first is the base
  std::vector<std::size_t> by_date;      // run indices, oldest first (undated runs last, as given)
  std::vector<TrendSeries> trends;       // three runs or more
  std::vector<ParetoGroup> pareto;       // of pareto_run(), the only run whose fronts are shown
  std::vector<LoadCharts> load;          // of pareto_run(): its problems with a load sweep (docs/load.md)
  std::string load_knees;                // of pareto_run(): the knee of each variant, a Markdown section
  std::vector<ScalingChart> scaling;     // of pareto_run(): latency and throughput along a numeric axis
};

// Loads and summarises the records. Throws BadRecord naming the file and the fault (of the first bad
// one given). keep_samples false leaves BenchmarkRow::samples empty once the statistics are computed:
// only the report's distributions draw them, and a history of many runs would hold every one.
ReportModel build_report_model(const std::vector<std::string>& paths, bool keep_samples = true);

// The run whose Pareto fronts the report shows: the last one given (the candidate of two). The fronts
// of one run are what a reader acts on; those of every run would repeat them.
const RunReport& pareto_run(const ReportModel& model);

// The two below are in report_model_pareto.cc.
// A variant's label (its `variant`) from its benchmark name, which the Pareto analysis identifies it by.
std::string pareto_label(const ParetoGroup& group, const std::string& name);

// The one-sentence conclusion of a Pareto group, e.g. "On gemm/m=1024,n=1024,k=1024, openblas_sgemm is on
// the frontier (fastest); cpu_naive is dominated by openblas_sgemm."
std::string pareto_sentence(const ParetoGroup& group);

}  // namespace gbx::tools

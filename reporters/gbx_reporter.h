#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "model/sample_channel.h"
#include "reporters/console_table.h"
#include "reporters/plain_samples.h"

namespace gbx {

// The one reporter Google Benchmark talks to. It patches each run with what the fixtures
// measured, forwards it to the display reporter and to an optional file printer, and keeps
// Google Benchmark's JSON of everything so that the record can be built at the end.
class GbxReporter : public benchmark::BenchmarkReporter {
 public:
  // display may be null (nothing shown while running); file_printer, when given, writes into
  // file_output, which the caller then saves.
  GbxReporter(benchmark::BenchmarkReporter* display, std::unique_ptr<benchmark::BenchmarkReporter> file_printer,
              const SampleChannel& channel = SampleChannel::global());
  ~GbxReporter() override;

  // The gbx console table, shown instead of (or besides) the display reporter; not owned.
  void set_console(ConsoleTable* console) { console_ = console; }
  void set_analysis_options(const AnalysisOptions& options) { analysis_options_ = options; }
  // false: no statistics (a child process, whose parent analyses every process's samples together).
  void set_analyze(bool analyze) { analyze_ = analyze; }
  // Called after each benchmark instance's repetitions are reported, with its name and whether it failed.
  void set_on_finished(std::function<void(const std::string&, bool)> on_finished) {
    on_finished_ = std::move(on_finished);
  }

  // Hide repetitions that have aggregate rows from the display (and console) and from the file
  // printer; the record always keeps them, with their samples.
  void set_aggregates_only(bool display, bool file_printer) {
    display_aggregates_only_ = display;
    file_aggregates_only_ = file_printer;
  }

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  const std::string google_benchmark_json() const { return json_output_.str(); }
  const std::vector<std::optional<detail::RunRecord>>& entries() const { return entries_; }
  // The statistics of each entry that has samples, computed once for the console and the record.
  const std::vector<std::optional<RunAnalysis>>& analyses() const { return analyses_; }
  std::string file_output() const { return file_output_.str(); }
  bool any_failed() const { return any_failed_; }

 private:
  benchmark::BenchmarkReporter* display_;
  std::unique_ptr<benchmark::BenchmarkReporter> file_printer_;
  std::unique_ptr<benchmark::JSONReporter> json_;
  const SampleChannel& channel_;
  std::ostringstream json_output_;
  std::ostringstream file_output_;
  std::vector<std::optional<detail::RunRecord>> entries_;
  std::vector<std::optional<RunAnalysis>> analyses_;
  std::vector<Run> file_runs_;     // for file_printer_, at Finalize
  std::vector<Run> display_runs_;  // for display_, at Finalize
  ConsoleTable* console_ = nullptr;
  AnalysisOptions analysis_options_;
  // The records behind each benchmark instance's repetitions, for its aggregate rows (whose label
  // Google Benchmark empties when the repetitions' labels differ).
  std::map<std::string, std::vector<detail::RunRecord>> repetitions_;
  std::set<std::int64_t> consumed_;                   // records already tied to a reported row
  std::map<std::string, PlainRows> plain_instances_;  // a plain instance's rows, for its aggregates
  bool display_aggregates_only_ = false;
  bool file_aggregates_only_ = false;
  bool any_failed_ = false;
  bool analyze_ = true;
  std::function<void(const std::string&, bool)> on_finished_;

  // A gbx benchmark's run: its record from the channel, the run patched with it.
  std::optional<detail::RunRecord> record_for(Run& run);
  // For aggregates whose repetitions were never reported: the instance's latest records.
  std::vector<detail::RunRecord> unreported_repetitions(const Run& aggregate);
};

// A problem named from Google Benchmark's named arguments, as fixtures name theirs: ("gemm",
// "m:256/n:64/k:256") gives "gemm/m=256,n=64,k=256"; empty when an argument has no name.
std::string problem_with_arg_names(const std::string& family, const std::string& args);

// Google Benchmark's argument string ("n:4096/8", "4096") as numbers; nothing for other text.
std::optional<std::vector<std::int64_t>> parse_run_args(const std::string& text);

}  // namespace gbx

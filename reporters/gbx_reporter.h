#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "extensions/sample_channel.h"

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

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  const std::string google_benchmark_json() const { return json_output_.str(); }
  const std::vector<std::optional<RunRecord>>& entries() const { return entries_; }
  std::string file_output() const { return file_output_.str(); }
  bool any_failed() const { return any_failed_; }

 private:
  benchmark::BenchmarkReporter* display_;
  std::unique_ptr<benchmark::BenchmarkReporter> file_printer_;
  std::unique_ptr<benchmark::JSONReporter> json_;
  const SampleChannel& channel_;
  std::ostringstream json_output_;
  std::ostringstream file_output_;
  std::vector<std::optional<RunRecord>> entries_;
  // The records behind each benchmark instance's repetitions, for its aggregate rows (whose label
  // Google Benchmark empties when the repetitions' labels differ).
  std::map<std::string, std::vector<RunRecord>> repetitions_;
  std::int64_t reported_up_to_ = -1;  // the highest record id seen in an earlier report
  bool any_failed_ = false;

  std::vector<RunRecord> repetitions_of(const Run& aggregate) const;
};

}  // namespace gbx

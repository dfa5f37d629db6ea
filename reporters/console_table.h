#pragma once

#include <benchmark/benchmark.h>

#include <iosfwd>
#include <optional>
#include <string>

#include "extensions/protocol.h"
#include "extensions/run_record.h"
#include "reporters/format.h"
#include "reporters/run_analysis.h"

namespace gbx {

// The console view: one row per benchmark with its median, the median's 95% interval, CV, n,
// p99 and flags, then one line naming the protocol.
class ConsoleTable {
 public:
  ConsoleTable(std::ostream& out, Protocol protocol, std::string run_id);

  void print_header(const benchmark::BenchmarkReporter::Context& context);
  void print_row(const benchmark::BenchmarkReporter::Run& run, const std::optional<RunRecord>& record,
                 const std::optional<RunAnalysis>& analysis);
  void print_footer();

 private:
  std::ostream& out_;
  Protocol protocol_;
  std::string run_id_;
  std::size_t name_width_ = 40;
  bool printed_columns_ = false;
};

}  // namespace gbx

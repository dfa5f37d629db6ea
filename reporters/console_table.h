#pragma once

#include <benchmark/benchmark.h>

#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/run_analysis.h"
#include "model/protocol.h"
#include "model/run_record.h"
#include "text/format.h"

namespace gbx {

// The console view: one row per benchmark with its median, the median's 95% interval, CV, n,
// p99 and flags, then one line naming the protocol.
class ConsoleTable {
 public:
  ConsoleTable(std::ostream& out, detail::Protocol protocol, std::string run_id);

  void print_header(const benchmark::BenchmarkReporter::Context& context);
  void print_row(const benchmark::BenchmarkReporter::Run& run, const std::optional<detail::RunRecord>& record,
                 const std::optional<RunAnalysis>& analysis);
  // Below the table: how many benchmarks could not run here and why (each one by name with
  // list_not_run), the protocol, and a legend of the flags shown.
  void print_footer();
  void set_list_not_run(bool list) { list_not_run_ = list; }

 private:
  struct NotRun {
    std::string name;  // problem and variant, as measured rows are read: "reduce/n=4096 cub"
    std::string reason;
    bool cuda = false;
  };
  std::ostream& out_;
  detail::Protocol protocol_;
  std::string run_id_;
  std::size_t name_width_ = 40;
  bool printed_columns_ = false;
  bool plain_shown_ = false;  // a plain Google Benchmark benchmark's row: the footer says how it was sampled
  bool list_not_run_ = false;
  std::vector<NotRun> not_run_;
  std::set<std::string> flags_shown_;
};

}  // namespace gbx

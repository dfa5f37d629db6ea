#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace gbx::tools {

struct ExportOptions {
  std::vector<std::string> inputs;  // one record or more, of one machine and commit for bencher and github
  std::string format;               // bencher, github-action-benchmark or conbench
  // bencher, conbench: the file. github-action-benchmark: a prefix, for PREFIX-smaller-is-better.json and
  // PREFIX-bigger-is-better.json (the action takes one direction per file).
  std::string output;
  std::string repository;  // conbench: github.repository, https://github.com/ORG/REPO
  std::string run_reason;  // conbench: run_reason, optional
};

// `gbx export --format=F RECORD... -o OUT` (docs/dashboards.md): every measured benchmark's latency (the
// process-level estimate where there is one, with its interval), rates, energy, error and peak memory,
// in the consumer's format. A metric a record lacks is left out; a benchmark that did not run is never
// exported. Exit 0 when written (stdout names the files, the testbed and the commit); 2 on bad input,
// naming the file or the flag, and then nothing is written. Files are written atomically.
int export_command(const ExportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

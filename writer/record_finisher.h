#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "analysis/pareto.h"

// The one finisher of a record, whatever wrote it: one process, the parent of --gbx_processes,
// gbx ab, gbx merge (and so the Slurm merge). Each path builds its record, then finishes and writes
// it here, so that no path can skip a step.
namespace gbx {

// Finishes `record` in place, in this order: its Pareto analysis (gbx.pareto); invalid UTF-8 (argv
// and the environment may hold any bytes, JSON holds UTF-8 only) replaced by U+FFFD and listed in
// gbx.invalid_utf8_replaced, with a line on `err` prefixed by `tool`; gbx.interrupted, true when
// it already was, when `interrupted`, or when a signal came while the record was built; then the seal.
// Returns the Pareto groups, for the console.
std::vector<ParetoGroup> finish_record(nlohmann::json& record, bool interrupted, std::ostream& err,
                                       const std::string& tool = "gbx");

// Where a finished record goes. Files are written atomically; an empty path writes nothing.
struct RecordDestinations {
  std::string record_path;              // the record
  std::string out_path;                 // --benchmark_out
  std::optional<std::string> out_text;  // what out_path gets when it is not the record (csv, console)
  bool to_stdout = false;               // the record on `out` (--benchmark_format=json)
};

// The finished record's text (indented JSON and a newline) to each destination. Throws on a failed
// write, with the file named.
void write_record(const nlohmann::json& record, const RecordDestinations& destinations, std::ostream& out);

}  // namespace gbx

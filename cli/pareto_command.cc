#include "cli/pareto_command.h"

#include <ostream>
#include <vector>

#include "analysis/pareto.h"
#include "record/record_reader.h"

namespace gbx::tools {

int pareto_command(const ParetoCommandOptions& options, std::ostream& out, std::ostream& err) {
  if (options.format != "console" && options.format != "json") {
    err << "gbx pareto: invalid value '" << options.format << "' for --format: expected console or json\n";
    return 2;
  }
  LoadedRecord record;
  try {
    record = load_record(options.path);
  } catch (const BadRecord& error) {
    err << "gbx pareto: " << error.what() << "\n";
    return 2;
  }
  // Recomputed rather than read from gbx.pareto: records written before it existed have the samples
  // too, and the analysis is deterministic, so a current record gives what it holds.
  const std::vector<ParetoGroup> groups = pareto_from_record(record);
  if (options.format == "json") {
    out << pareto_json(groups).dump(2) << "\n";
  } else {
    print_pareto(out, groups);
    bool shown = false;
    for (const ParetoGroup& group : groups) shown = shown || group.variants.size() + group.failed.size() >= 2;
    if (record.has_gbx && !shown) {
      out << options.path << ": no problem has two or more variants; there is nothing to trade off\n";
    }
  }
  if (!record.has_gbx) {
    // Readable, so not bad input; with --format=json the note goes to stderr to keep stdout JSON.
    (options.format == "json" ? err : out)
        << options.path
        << ": plain Google Benchmark JSON: there is no gbx section, so no problems, accuracy or memory are known "
           "and there is no Pareto analysis to make\n";
  }
  return 0;
}

}  // namespace gbx::tools

#include "cli/ab_command.h"

#include <ostream>

#include "ab/interleaved.h"
#include "cli/ab_output.h"
#include "cli/compare_command.h"

namespace gbx::tools {

int ab_command(const AbOptions& options, std::ostream& out, std::ostream& err) {
  if (const int bad = check_ab_options(options, err)) return bad;
  if (options.interleaved) {
    const AbResult run = run_interleaved(options, err);
    if (run.exit_code) return *run.exit_code;
    return print_paired(out, options.format, run.comparison, run.paths[0], run.paths[1]);
  }
  const AbResult run = run_whole_processes(options, err);
  if (run.exit_code) return *run.exit_code;
  CompareOptions compare;
  compare.base = run.paths[0];
  compare.candidate = run.paths[1];
  compare.format = options.format;
  compare.noise_band = options.noise_band;
  compare.fdr = options.fdr;
  compare.allow_incompatible = options.allow_incompatible;
  compare.tool = "gbx ab";
  return compare_records(compare, out, err);
}

}  // namespace gbx::tools

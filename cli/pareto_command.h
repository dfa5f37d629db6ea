#pragma once

#include <iosfwd>
#include <string>

namespace gbx::tools {

struct ParetoCommandOptions {
  std::string path;
  std::string format = "console";  // console or json
};

// `gbx pareto FILE`: the Pareto analysis of every problem in a record (docs/pareto.md), recomputed
// from its samples. Exit 0 when the record could be read, plain Google Benchmark JSON included (it
// has no problems to analyse, and says so); 2 on bad input, with a message naming the file.
int pareto_command(const ParetoCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

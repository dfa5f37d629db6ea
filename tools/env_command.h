#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace gbx::tools {

// `gbx env`: prints the environment a record would carry (gbx.environment) as indented JSON and
// returns 0. `argv` is the tool's own command line, recorded under process.argv.
int print_environment(const std::vector<std::string>& argv, std::ostream& out);

}  // namespace gbx::tools

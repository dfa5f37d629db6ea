#include "tools/env_command.h"

#include <ostream>

#include "environment/environment.h"

namespace gbx::tools {

int print_environment(const std::vector<std::string>& argv, std::ostream& out) {
  // Start and end are moments apart here; the pair matters around a benchmark run, not for `env`.
  const EnvironmentSnapshot start = capture_start();
  // The environment may hold any bytes; print invalid UTF-8 as U+FFFD rather than abort on it.
  out << capture_environment(start, argv).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace gbx::tools

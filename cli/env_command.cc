#include "cli/env_command.h"

#include <unistd.h>

#include <ostream>
#include <stdexcept>

#include "processes/process_runner.h"

namespace gbx::tools {

int print_environment(const std::string& binary, const std::vector<std::string>& bench_args, std::ostream& out,
                      std::ostream& err) {
  if (::access(binary.c_str(), X_OK) != 0) {
    err << "gbx env: " << binary << ": not an executable file\n";
    return 2;
  }
  try {
    const BinaryDescription description = describe_binary(binary, bench_args);
    // The environment may hold any bytes; print invalid UTF-8 as U+FFFD rather than abort on it.
    out << description.environment.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  } catch (const std::exception& error) {
    err << "gbx env: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace gbx::tools

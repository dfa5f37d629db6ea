#include "cli/version_command.h"

#include <string>

#include "environment/build_info.h"
#include "environment/git_info.h"

namespace gbx::tools {

void print_version(std::ostream& out) {
  const std::string commit = GBX_GIT_COMMIT;
  const std::string dirty = GBX_GIT_DIRTY == 1 ? " (with uncommitted changes)" : "";
  const std::string benchmark = GBX_BUILD_BENCHMARK_VERSION;
  out << "gbx " << GBX_VERSION << "\n"
      << "source commit: "
      << (commit.empty() ? "unknown (" + std::string(GBX_GIT_COMMIT_UNAVAILABLE) + ")" : commit + dirty) << "\n"
      << "Google Benchmark: " << (benchmark.empty() ? "unknown" : benchmark) << "\n";
}

}  // namespace gbx::tools

#include "processes/shared_inputs.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace gbx {

SharedInputsDirectory::SharedInputsDirectory() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/gbx-ab-inputs-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) return;  // an optimisation only: the workers draw their own
  path_ = name.data();
  ::setenv(kSharedInputsVariable, path_.c_str(), 1);
}

SharedInputsDirectory::~SharedInputsDirectory() {
  if (path_.empty()) return;
  ::unsetenv(kSharedInputsVariable);
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace gbx

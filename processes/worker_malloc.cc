#include "processes/worker_malloc.h"

#include <cstdlib>

namespace gbx {

WorkerMallocInHugePages::WorkerMallocInHugePages() {
  const char* given = std::getenv(kGlibcTunablesVariable);
  if (given != nullptr) previous_ = given;
  const std::string user = previous_.value_or("");
  if (user.find("glibc.malloc.hugetlb=") != std::string::npos) {
    tunables_ = user;  // the user's choice stands
  } else {
    tunables_ = user.empty() ? kMallocHugePagesTunable : user + ":" + kMallocHugePagesTunable;
  }
  ::setenv(kGlibcTunablesVariable, tunables_.c_str(), 1);
}

WorkerMallocInHugePages::~WorkerMallocInHugePages() {
  if (previous_) {
    ::setenv(kGlibcTunablesVariable, previous_->c_str(), 1);
  } else {
    ::unsetenv(kGlibcTunablesVariable);
  }
}

std::string WorkerMallocInHugePages::description() const {
  return std::string(kGlibcTunablesVariable) + "=" + tunables_;
}

}  // namespace gbx

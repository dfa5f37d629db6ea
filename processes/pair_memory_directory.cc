#include "processes/pair_memory_directory.h"

#include <sys/vfs.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace gbx {

namespace {

constexpr long kTmpfsMagic = 0x01021994;  // linux/magic.h's TMPFS_MAGIC

std::string pair_directory(const std::string& path, std::int64_t pair) {
  return path + "/pair-" + std::to_string(pair);
}

}  // namespace

PairMemoryDirectories::PairMemoryDirectories(bool enabled, const std::string& root) {
  if (!enabled) {
    description_ = "private: each worker on its own pages (--pair-memory=private)";
    return;
  }
  struct statfs status {};
  if (::statfs(root.c_str(), &status) != 0 || static_cast<long>(status.f_type) != kTmpfsMagic) {
    description_ = "private: " + root + " is not a tmpfs, and a file on a disk would be written back while measured";
    return;
  }
  std::string pattern = root + "/gbx-ab-pairs-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) {
    description_ = "private: cannot make a directory in " + root;
    return;
  }
  path_ = name.data();
  description_ = "shared: the two workers of a pair measure on one copy of each large host array, mapped from " + root +
                 " (tmpfs, 4 KiB pages) where their setups left the same bytes (extensions/pair_memory.h)";
}

PairMemoryDirectories::~PairMemoryDirectories() {
  if (path_.empty()) return;
  ::unsetenv(kPairMemoryVariable);
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void PairMemoryDirectories::enter(std::int64_t pair) {
  if (path_.empty()) return;
  const std::string directory = pair_directory(path_, pair);
  std::error_code error;
  std::filesystem::create_directory(directory, error);
  if (error) {
    ::unsetenv(kPairMemoryVariable);  // this pair's workers keep to their own pages
    return;
  }
  ::setenv(kPairMemoryVariable, directory.c_str(), 1);
}

void PairMemoryDirectories::drop_before(std::int64_t pair) {
  if (path_.empty()) return;
  for (std::int64_t former = pair - 1; former >= 0; --former) {
    std::error_code ignored;
    if (std::filesystem::remove_all(pair_directory(path_, former), ignored) == 0) break;  // the older ones went before
  }
}

}  // namespace gbx

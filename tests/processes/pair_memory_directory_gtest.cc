// The directories in which a gbx ab run's worker pairs share their arrays: on a tmpfs only, one per
// pair, named to the workers as each pair starts, a former pair's freed once the next has started,
// and all gone, with the variable, when the run ends.
#include <gtest/gtest.h>
#include <sys/vfs.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "processes/pair_memory_directory.h"

namespace {

bool shm_is_tmpfs() {
  struct statfs status {};
  return ::statfs("/dev/shm", &status) == 0 && status.f_type == 0x01021994;
}

std::string named() {
  const char* value = std::getenv(gbx::kPairMemoryVariable);
  return value != nullptr ? value : "";
}

TEST(PairMemoryDirectories, OnePerPairNamedToItsWorkersAndFreedAfterTheNextStarts) {
  if (!shm_is_tmpfs()) GTEST_SKIP() << "/dev/shm is not a tmpfs here";
  std::string root;
  {
    gbx::PairMemoryDirectories pairs(true);
    ASSERT_TRUE(pairs.sharing()) << pairs.description();
    root = pairs.path();
    EXPECT_EQ(root.rfind("/dev/shm/gbx-ab-pairs-", 0), 0u) << root;
    EXPECT_EQ(pairs.description().rfind("shared", 0), 0u) << pairs.description();
    pairs.enter(0);
    EXPECT_EQ(named(), root + "/pair-0");
    std::ofstream(named() + "/an-array") << "what a worker published";
    pairs.drop_before(0);
    EXPECT_TRUE(std::filesystem::exists(root + "/pair-0/an-array"));
    pairs.enter(1);
    EXPECT_EQ(named(), root + "/pair-1");
    pairs.drop_before(1);
    EXPECT_FALSE(std::filesystem::exists(root + "/pair-0"));
    EXPECT_TRUE(std::filesystem::is_directory(root + "/pair-1"));
  }
  EXPECT_FALSE(std::filesystem::exists(root));
  EXPECT_EQ(named(), "");
}

TEST(PairMemoryDirectories, OffOnRequestAndOffATmpfsWithTheReason) {
  {
    gbx::PairMemoryDirectories off(false);
    EXPECT_FALSE(off.sharing());
    EXPECT_NE(off.description().find("--pair-memory=private"), std::string::npos) << off.description();
    off.enter(0);
    EXPECT_EQ(named(), "");
  }
  const std::string disk = std::filesystem::current_path().string();  // the build tree: not a tmpfs here
  struct statfs status {};
  if (::statfs(disk.c_str(), &status) != 0 || status.f_type == 0x01021994) GTEST_SKIP() << disk << " is a tmpfs";
  gbx::PairMemoryDirectories on_disk(true, disk);
  EXPECT_FALSE(on_disk.sharing());
  EXPECT_NE(on_disk.description().find(disk + " is not a tmpfs"), std::string::npos) << on_disk.description();
  on_disk.enter(0);
  EXPECT_EQ(named(), "");
}

}  // namespace

// The directory that one gbx ab run's workers share their random inputs in: made private, named in the
// environment for the workers, and gone with everything in it when the run ends.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "processes/shared_inputs.h"

namespace {

TEST(SharedInputs, ADirectoryNamedToTheWorkersAndRemovedWithWhatTheyWrote) {
  std::string path;
  {
    const gbx::SharedInputsDirectory shared;
    path = shared.path();
    ASSERT_FALSE(path.empty());
    EXPECT_TRUE(std::filesystem::is_directory(path));
    const char* named = std::getenv(gbx::kSharedInputsVariable);
    ASSERT_NE(named, nullptr);
    EXPECT_EQ(std::string(named), path);
    std::ofstream(path + "/f-1-2.bin") << "what a worker wrote";
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(std::getenv(gbx::kSharedInputsVariable), nullptr);
}

TEST(SharedInputs, WhereNoneCanBeMadeNothingIsShared) {
  const char* before = std::getenv("TMPDIR");
  const std::string kept = before != nullptr ? before : "";
  ::setenv("TMPDIR", "/nonexistent/gbx", 1);
  {
    const gbx::SharedInputsDirectory shared;
    EXPECT_TRUE(shared.path().empty());
    EXPECT_EQ(std::getenv(gbx::kSharedInputsVariable), nullptr);
  }
  if (before != nullptr) {
    ::setenv("TMPDIR", kept.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
}

}  // namespace

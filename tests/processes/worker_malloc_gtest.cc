// The environment gbx ab's workers get for malloc in huge pages: the tunable added to what the user set,
// the user's own choice of it kept, and the variable as it was once the run ends.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "processes/worker_malloc.h"

namespace {

std::optional<std::string> tunables() {
  const char* value = std::getenv(gbx::kGlibcTunablesVariable);
  return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
}

// Runs `body` with GLIBC_TUNABLES set to `given` (unset for nullopt), and restores the test's own.
template <class Body>
void with_tunables(const std::optional<std::string>& given, Body body) {
  const std::optional<std::string> kept = tunables();
  if (given) {
    ::setenv(gbx::kGlibcTunablesVariable, given->c_str(), 1);
  } else {
    ::unsetenv(gbx::kGlibcTunablesVariable);
  }
  body();
  if (kept) {
    ::setenv(gbx::kGlibcTunablesVariable, kept->c_str(), 1);
  } else {
    ::unsetenv(gbx::kGlibcTunablesVariable);
  }
}

TEST(WorkerMalloc, UnsetBecomesTheTunableAndUnsetAgain) {
  with_tunables(std::nullopt, [] {
    {
      const gbx::WorkerMallocInHugePages workers;
      EXPECT_EQ(tunables(), "glibc.malloc.hugetlb=1");
      EXPECT_EQ(workers.description(), "GLIBC_TUNABLES=glibc.malloc.hugetlb=1");
    }
    EXPECT_EQ(tunables(), std::nullopt);
  });
}

TEST(WorkerMalloc, TheUsersTunablesAreKeptAndRestored) {
  with_tunables(std::string("glibc.malloc.check=3"), [] {
    {
      const gbx::WorkerMallocInHugePages workers;
      EXPECT_EQ(tunables(), "glibc.malloc.check=3:glibc.malloc.hugetlb=1");
    }
    EXPECT_EQ(tunables(), "glibc.malloc.check=3");
  });
}

TEST(WorkerMalloc, TheUsersOwnHugetlbChoiceStands) {
  with_tunables(std::string("glibc.malloc.hugetlb=0"), [] {
    {
      const gbx::WorkerMallocInHugePages workers;
      EXPECT_EQ(tunables(), "glibc.malloc.hugetlb=0");
      EXPECT_EQ(workers.description(), "GLIBC_TUNABLES=glibc.malloc.hugetlb=0");
    }
    EXPECT_EQ(tunables(), "glibc.malloc.hugetlb=0");
  });
}

}  // namespace

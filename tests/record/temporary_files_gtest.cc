// Temporary files of atomic writes: one left by a writer that died mid-write (it cannot clean up
// after kill -9) is swept by the next write in its directory; one whose writer may still be writing
// is kept; a writer's signal handler removes its own.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <string>
#include <vector>

#include "record/atomic_file.h"

namespace {

std::vector<std::string> files_in(const std::string& directory) {
  std::vector<std::string> names;
  DIR* listing = ::opendir(directory.c_str());
  while (const dirent* entry = listing == nullptr ? nullptr : ::readdir(listing)) {
    if (entry->d_name[0] != '.') names.emplace_back(entry->d_name);
  }
  if (listing != nullptr) ::closedir(listing);
  return names;
}

extern "C" void remove_own_temporary_and_exit(int) {
  gbx::remove_temporary_file_now();
  ::_exit(3);
}

class TemporaryFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/gbx-temporary-files-XXXXXX";
    ASSERT_NE(::mkdtemp(name), nullptr);
    directory_ = name;
  }
  void TearDown() override {
    for (const std::string& file : files_in(directory_)) ::unlink((directory_ + "/" + file).c_str());
    ::rmdir(directory_.c_str());
  }

  // A child process writes a record too large for its file-size limit: SIGXFSZ ends it in the
  // middle of the write, as kill -9 would, unless with_handler lets it remove its temporary first.
  // Returns how the child ended (its wait status).
  int child_dies_writing(bool with_handler) {
    const pid_t child = ::fork();
    if (child == 0) {
      const rlimit no_core{0, 0}, small_files{16, 16};
      ::setrlimit(RLIMIT_CORE, &no_core);
      ::setrlimit(RLIMIT_FSIZE, &small_files);
      if (with_handler) std::signal(SIGXFSZ, remove_own_temporary_and_exit);
      try {
        gbx::write_file_atomically(directory_ + "/record.json", std::string(4096, 'x'));
      } catch (...) {
      }
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return status;
  }

  std::string directory_;
};

TEST_F(TemporaryFiles, ADeadWritersTemporaryIsSweptByTheNextWrite) {
  const int status = child_dies_writing(false);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ) << status;
  const std::vector<std::string> left = files_in(directory_);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].rfind("record.json.tmp-", 0), 0u) << left[0];

  gbx::write_file_atomically(directory_ + "/other.json", "{}");
  EXPECT_EQ(files_in(directory_), std::vector<std::string>{"other.json"});
}

TEST_F(TemporaryFiles, ATemporaryThatMayStillBeWrittenIsKept) {
  ASSERT_TRUE(WIFSIGNALED(child_dies_writing(false)));
  const std::string dead = files_in(directory_).at(0);
  // The name is "record.json.tmp-<host>-<pid>-XXXXXX": forge the same for writers that may be alive.
  const std::size_t random = dead.size() - 7;
  const std::size_t pid_at = dead.rfind('-', random - 1) + 1;
  const std::string host_part = dead.substr(0, pid_at);
  const std::vector<std::string> kept = {
      host_part + std::to_string(::getpid()) + "-abcdef",     // this process
      host_part + std::to_string(::getppid()) + "-abcdef",    // a live one
      "record.json.tmp-another.host-" + dead.substr(pid_at),  // another host's: its pid says nothing here
      "record.json.tmp-Ab12Cd",                               // an older gbx's, without a pid
      "notes.txt",
  };
  for (const std::string& name : kept) std::ofstream(directory_ + "/" + name) << "x";
  EXPECT_EQ(gbx::remove_stale_temporary_files(directory_), 1u);
  std::vector<std::string> expected = kept;
  std::vector<std::string> left = files_in(directory_);
  std::sort(expected.begin(), expected.end());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, expected);
}

TEST_F(TemporaryFiles, ASignalHandlerRemovesItsOwn) {
  const int status = child_dies_writing(true);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3) << status;
  EXPECT_TRUE(files_in(directory_).empty());
}

}  // namespace

#include "record/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gbx {

namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error("cannot " + what + " '" + path + "': " + std::strerror(errno));
}

// The temporary file being written, for remove_temporary_file_now(); set only while it exists.
char temporary_in_progress[4096];
volatile std::sig_atomic_t temporary_exists = 0;

void note_temporary(const std::string& temporary) {
  if (temporary.size() >= sizeof temporary_in_progress) return;
  temporary.copy(temporary_in_progress, temporary.size());
  temporary_in_progress[temporary.size()] = '\0';
  temporary_exists = 1;
}

// A temporary file beside path: the rename stays on one file system and so stays atomic.
int open_temporary(const std::string& path, std::string& temporary) {
  std::vector<char> name(path.begin(), path.end());
  const std::string suffix = ".tmp-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  temporary.assign(name.data());
  if (fd < 0) fail("create a file in", directory_of(path));
  return fd;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  std::string temporary;
  const int fd = open_temporary(path, temporary);
  note_temporary(temporary);
  // Cleared on every way out: the rename consumed the file, or it was unlinked.
  struct Forget {
    ~Forget() { temporary_exists = 0; }
  } forget;
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(temporary.c_str());
      fail("write", temporary);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(temporary.c_str());
    fail("write", temporary);
  }
  // mkstemp makes the file private; a record is for reading, as an ordinary file would be.
  ::chmod(temporary.c_str(), 0644);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    fail("rename a file to", path);
  }
}

void remove_temporary_file_now() noexcept {
  if (temporary_exists != 0) ::unlink(temporary_in_progress);
}

void check_writable(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
    throw std::runtime_error("cannot write '" + path + "': it exists and is not a regular file");
  }
  std::string temporary;
  const int fd = open_temporary(path, temporary);
  ::close(fd);
  ::unlink(temporary.c_str());
  if (::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0) fail("write", path);
}

}  // namespace gbx

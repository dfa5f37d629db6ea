#include "record/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
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

// "<file>.tmp-<host>-" begins a temporary file's suffix; then "<pid>-XXXXXX". The host and pid say
// who writes it, so that a later writer can tell a temporary left by a dead process (kill -9) from
// one still being written, on this host or, on a shared file system, another.
std::string temporary_marker() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::string marker = ".tmp-";
  for (const char* c = host; *c != '\0' && marker.size() < 5 + 64; ++c) {
    marker += std::isalnum(static_cast<unsigned char>(*c)) != 0 || *c == '.' ? *c : '_';
  }
  return marker + "-";
}

// The pid in a temporary's name after its marker ("<pid>-XXXXXX"), or 0 if it has not that form.
pid_t writer_of(const std::string& rest) {
  const std::size_t dash = rest.find('-');
  if (dash == 0 || dash == std::string::npos || rest.size() != dash + 7 || dash > 9) return 0;
  pid_t pid = 0;
  for (std::size_t i = 0; i < dash; ++i) {
    if (std::isdigit(static_cast<unsigned char>(rest[i])) == 0) return 0;
    pid = pid * 10 + (rest[i] - '0');
  }
  return pid;
}

// A temporary file beside path: the rename stays on one file system and so stays atomic.
int open_temporary(const std::string& path, std::string& temporary) {
  std::vector<char> name(path.begin(), path.end());
  const std::string suffix = temporary_marker() + std::to_string(::getpid()) + "-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  temporary.assign(name.data());
  if (fd < 0) fail("create a file in", directory_of(path));
  return fd;
}

}  // namespace

std::size_t remove_stale_temporary_files(const std::string& directory) {
  DIR* listing = ::opendir(directory.c_str());
  if (listing == nullptr) return 0;
  const std::string marker = temporary_marker();
  std::size_t removed = 0;
  while (const dirent* entry = ::readdir(listing)) {
    const std::string name = entry->d_name;
    const std::size_t at = name.rfind(marker);
    if (at == std::string::npos || at == 0) continue;
    const pid_t pid = writer_of(name.substr(at + marker.size()));
    // Alive, or another user's (EPERM): not ours to judge. A reused pid keeps a stale file, never
    // the reverse.
    if (pid <= 0 || pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    struct stat status {};
    if (::fstatat(::dirfd(listing), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(status.st_mode) ||
        status.st_uid != ::geteuid()) {
      continue;
    }
    if (::unlinkat(::dirfd(listing), entry->d_name, 0) == 0) ++removed;
  }
  ::closedir(listing);
  return removed;
}

void write_file_atomically(const std::string& path, const std::string& content) {
  remove_stale_temporary_files(directory_of(path));
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

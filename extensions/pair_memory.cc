#include "extensions/pair_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "extensions/host_memory.h"

namespace gbx::detail {

namespace {

constexpr long kTmpfsMagic = 0x01021994;  // linux/magic.h's TMPFS_MAGIC

std::string& directory() {
  static std::string path;
  return path;
}

std::string& key_override() {
  static std::string key;
  return key;
}

PairMemoryOutcome& outcome() {
  static PairMemoryOutcome current;
  return current;
}

std::size_t page_rounded(std::size_t bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

// A file name from the key: its letters and digits, then its hash, so that keys that differ only in
// other characters get other files.
std::string file_stem(const std::string& key, std::size_t index, std::size_t bytes) {
  std::string stem;
  for (const char c : key.substr(0, 80)) stem += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  char tail[96];
  std::snprintf(tail, sizeof tail, "-%016zx-%zu-%zu", std::hash<std::string>{}(key), index, bytes);
  return stem + tail;
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  Descriptor(Descriptor&&) = delete;
  Descriptor& operator=(Descriptor&&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string system_error(const std::string& what) { return what + ": " + std::strerror(errno); }

// Writes the bytes to a new file at path, made whole under another name first, so that the partner
// never opens a part. Returns "" or why not.
std::string publish(const std::string& path, const void* data, std::size_t bytes) {
  const std::string part = path + ".part";
  const Descriptor fd(::open(part.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (fd.get() < 0) return system_error("cannot create " + part);
  const std::size_t length = page_rounded(bytes);
  // Reserved first, so that a full tmpfs fails here, not as a SIGBUS in the middle of a run.
  if (const int error = ::posix_fallocate(fd.get(), 0, static_cast<off_t>(length)); error != 0) {
    ::unlink(part.c_str());
    errno = error;
    return system_error("cannot reserve " + std::to_string(length) + " bytes in " + directory());
  }
  const auto* from = static_cast<const char*>(data);
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t wrote = ::pwrite(fd.get(), from + done, bytes - done, static_cast<off_t>(done));
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      ::unlink(part.c_str());
      return system_error("cannot write " + part);
    }
    done += static_cast<std::size_t>(wrote);
  }
  if (::rename(part.c_str(), path.c_str()) != 0) {
    ::unlink(part.c_str());
    return system_error("cannot rename " + part);
  }
  return "";
}

// Maps the file over [data, data + bytes), in place of this process's pages there. Returns "" or why not.
std::string map_over(const std::string& path, void* data, std::size_t bytes) {
  const Descriptor fd(::open(path.c_str(), O_RDWR | O_CLOEXEC));
  if (fd.get() < 0) return system_error("cannot open " + path);
  struct stat status {};
  if (::fstat(fd.get(), &status) != 0 || static_cast<std::size_t>(status.st_size) != page_rounded(bytes))
    return path + " has another size";
  // The private pages' bytes are the file's (the caller checked), so the array reads the same after.
  // Populated now, in one call, rather than by a fault per 4 KiB page in the first warm-up run.
  void* mapped =
      ::mmap(data, page_rounded(bytes), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd.get(), 0);
  if (mapped == MAP_FAILED) return system_error("cannot map " + path);
  return "";
}

// What the partner compares: the size and a hash of the bytes as the setup left them. A hash, not a
// second copy: writing 192 MiB twice to the tmpfs and comparing them page by page made a triad
// row's first block of a pair cost 1.1 s instead of 0.2-0.4 s.
std::string fingerprint(const HostArray& array) {
  char text[64];
  std::snprintf(text, sizeof text, "%zu:%016zx\n", array.bytes,
                std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(array.data), array.bytes)));
  return text;
}

// Its first line, with the newline.
std::string first_line(const std::string& path) {
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return "";
  char text[128];
  const ssize_t got = ::read(fd.get(), text, sizeof text);
  const std::string read = got > 0 ? std::string(text, static_cast<std::size_t>(got)) : "";
  return read.substr(0, read.find('\n') + 1);  // the file is a page: the line, not the zeros after it
}

// One array: "" when it is now on the pair's pages, else why not.
std::string share_array(const std::string& stem, const HostArray& array) {
  const std::string live = directory() + "/" + stem;
  const std::string setup = live + ".setup";
  const std::string mine = fingerprint(array);
  if (::access(live.c_str(), F_OK) == 0) {
    if (first_line(setup) != mine)
      return "its setup left other bytes than the partner's (another setup, or other inputs)";
    return map_over(live, array.data, array.bytes);
  }
  // The first of the pair: the fingerprint of its setup for the partner to compare, then the pages
  // to share (published last, as the partner looks for them first).
  if (std::string why = publish(setup, mine.data(), mine.size()); !why.empty()) return why;
  if (std::string why = publish(live, array.data, array.bytes); !why.empty()) return why;
  return map_over(live, array.data, array.bytes);
}

}  // namespace

void share_host_arrays_with_pair(const std::string& path) { directory() = path; }

bool sharing_host_arrays_with_pair() { return !directory().empty(); }

void set_pair_memory_key(const std::string& key) { key_override() = key; }

bool on_tmpfs(const std::string& path) {
  struct statfs status {};
  return ::statfs(path.c_str(), &status) == 0 && static_cast<long>(status.f_type) == kTmpfsMagic;
}

PairMemoryOutcome share_setup_with_pair(const std::string& benchmark, const std::vector<HostArray>& arrays) {
  PairMemoryOutcome result;
  const std::string& key = key_override().empty() ? benchmark : key_override();
  std::string unusable;  // a directory named by hand may be on a disk, whose writeback would be measured
  if (!directory().empty() && !on_tmpfs(directory())) unusable = directory() + " is not on a tmpfs";
  std::size_t index = 0;
  for (const HostArray& array : arrays) {
    const bool large =
        array.bytes >= kHugePageBytes / 8 && reinterpret_cast<std::uintptr_t>(array.data) % kHugePageBytes == 0;
    if (!large) continue;
    const bool sharing = !directory().empty() && unusable.empty();
    std::string why = sharing ? share_array(file_stem(key, index, array.bytes), array) : unusable;
    ++index;
    if (sharing && why.empty()) {
      result.shared_bytes += array.bytes;
      continue;
    }
    result.private_bytes += array.bytes;
    if (result.why_private.empty()) result.why_private = why;
  }
  outcome() = result;
  return result;
}

const PairMemoryOutcome& current_pair_memory() { return outcome(); }

void reset_pair_memory() { outcome() = PairMemoryOutcome{}; }

}  // namespace gbx::detail

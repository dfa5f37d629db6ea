#pragma once

#include <cstdint>
#include <string>

namespace gbx {

// The directory in which the two workers of one `gbx ab` worker pair share their large host arrays
// (extensions/pair_memory.h: on private pages, each fresh process ran a memory-bound kernel at a speed
// of its own). Named to the workers in kPairMemoryVariable.
inline constexpr const char* kPairMemoryVariable = "GBX_PAIR_MEMORY";

class PairMemoryDirectories {
 public:
  // On the tmpfs at root (a disk's writeback would be measured). enabled false, or no tmpfs there, or
  // no directory made: nothing is shared, and description() says why.
  explicit PairMemoryDirectories(bool enabled, const std::string& root = "/dev/shm");
  // Removes every pair's directory and what the workers wrote into it, and unsets the variable.
  ~PairMemoryDirectories();
  PairMemoryDirectories(const PairMemoryDirectories&) = delete;
  PairMemoryDirectories& operator=(const PairMemoryDirectories&) = delete;
  PairMemoryDirectories(PairMemoryDirectories&&) = delete;
  PairMemoryDirectories& operator=(PairMemoryDirectories&&) = delete;

  // Before worker pair `pair` starts: its directory, named in the variable for the workers spawned
  // from now on (a fresh worker that replaces a lost one finds its partner's arrays there).
  void enter(std::int64_t pair);
  // After it has started (the former pair's workers are gone): frees the former pairs' arrays.
  void drop_before(std::int64_t pair);

  bool sharing() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  // For the record: where and how, or why not.
  const std::string& description() const { return description_; }

 private:
  std::string path_;
  std::string description_;
};

}  // namespace gbx

#pragma once

#include <string>

namespace gbx {

// The random inputs that the workers of one `gbx ab` run share (extensions/random_inputs.h): each
// worker pair is a fresh pair of processes, and without this each drew its inputs again, which for
// the 64 MiB bandwidth rows cost more than their samples. The directory is private to this run,
// named to the workers in kSharedInputsVariable, and lives as long as this object.
inline constexpr const char* kSharedInputsVariable = "GBX_SHARED_INPUTS";

class SharedInputsDirectory {
 public:
  // Under $TMPDIR (or /tmp). Where none can be made, nothing is shared and path() is empty.
  SharedInputsDirectory();
  // Removes the directory and what the workers wrote into it, and unsets the variable.
  ~SharedInputsDirectory();
  SharedInputsDirectory(const SharedInputsDirectory&) = delete;
  SharedInputsDirectory& operator=(const SharedInputsDirectory&) = delete;
  SharedInputsDirectory(SharedInputsDirectory&&) = delete;
  SharedInputsDirectory& operator=(SharedInputsDirectory&&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace gbx

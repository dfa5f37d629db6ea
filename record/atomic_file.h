#pragma once

#include <string>

namespace gbx {

// Writes content to path through a temporary file in the same directory and a rename, so that
// readers see the old file or the whole new one, never a part. Throws std::runtime_error.
void write_file_atomically(const std::string& path, const std::string& content);

// Removes the temporary file write_file_atomically is writing, if any. Async-signal-safe: for a
// signal handler that is about to end the process (kill -9 cannot be handled, and leaves one).
void remove_temporary_file_now() noexcept;

// Throws std::runtime_error, naming the path, unless a file can be created at path.
void check_writable(const std::string& path);

}  // namespace gbx

#pragma once

#include <cstddef>
#include <string>

namespace gbx {

// Writes content to path through a temporary file in the same directory and a rename, so that
// readers see the old file or the whole new one, never a part. The temporary is named
// "<path>.tmp-<host>-<pid>-XXXXXX"; first, remove_stale_temporary_files sweeps the directory.
// Throws std::runtime_error.
void write_file_atomically(const std::string& path, const std::string& content);

// Removes the temporary files in directory that a process of this user on this host left when it
// died (kill -9, a crash) before it could rename or remove them: those whose pid no longer exists.
// Returns how many. Best effort: a file it cannot judge or remove stays.
std::size_t remove_stale_temporary_files(const std::string& directory);

// Removes the temporary file write_file_atomically is writing, if any. Async-signal-safe: for a
// signal handler that is about to end the process (kill -9 cannot be handled, and leaves one).
void remove_temporary_file_now() noexcept;

// Throws std::runtime_error, naming the path, unless a file can be created at path.
void check_writable(const std::string& path);

}  // namespace gbx

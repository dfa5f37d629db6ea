#pragma once

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

namespace gbx {

// Progress of a suite on stderr: "[12/65] gemm/naive/m:256 3.2 s, ETA 1m20s". On a terminal one line
// is rewritten in place; otherwise each finished benchmark gets a plain line.
class Progress {
 public:
  // mode: "auto" (on when `terminal`), "on" or "off"; terminal: whether out is a TTY.
  Progress(std::ostream& out, const std::string& mode, bool terminal, std::size_t total);

  void started(const std::string& name);
  // failed: the benchmark failed or its process died; the line says so.
  void finished(const std::string& name, bool failed);
  // Ends the rewritten line, if any.
  void close();

  bool enabled() const { return enabled_; }

 private:
  std::ostream& out_;
  bool enabled_;
  bool terminal_;
  std::size_t total_;
  std::size_t done_ = 0;
  bool line_open_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point current_start_;

  void show(const std::string& text);
};

// "45s", "1m20s", "2h03m": a duration as a person reads an ETA.
std::string format_eta(double seconds);

// Shortens a benchmark name for the progress line: drops "/iterations:1/manual_time".
std::string progress_name(const std::string& name);

}  // namespace gbx

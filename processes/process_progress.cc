#include "processes/process_progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace gbx {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::string format_eta(double seconds) {
  const long long total = std::llround(std::max(0.0, seconds));
  char text[32];
  if (total < 60) {
    std::snprintf(text, sizeof text, "%llds", total);
  } else if (total < 3600) {
    std::snprintf(text, sizeof text, "%lldm%02llds", total / 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%lldh%02lldm", total / 3600, (total % 3600) / 60);
  }
  return text;
}

std::string progress_name(const std::string& name) {
  const std::string suffix = "/iterations:1/manual_time";
  std::string shown = name;
  const auto at = shown.find(suffix);
  if (at != std::string::npos) shown.erase(at, suffix.size());
  return shown;
}

Progress::Progress(std::ostream& out, const std::string& mode, bool terminal, std::size_t total)
    : out_(out),
      enabled_(mode == "on" || (mode == "auto" && terminal)),
      terminal_(terminal),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      current_start_(start_) {}

void Progress::show(const std::string& text) {
  if (terminal_) {
    out_ << "\r" << text << "\033[K" << std::flush;  // \033[K clears what a longer line left
    line_open_ = true;
  } else {
    out_ << text << "\n" << std::flush;
  }
}

void Progress::started(const std::string& name) {
  current_start_ = std::chrono::steady_clock::now();
  if (!enabled_ || !terminal_) return;  // plain lines are written when a benchmark finishes
  show("[" + std::to_string(done_ + 1) + "/" + std::to_string(total_) + "] " + progress_name(name) + " ...");
}

void Progress::finished(const std::string& name, bool failed) {
  ++done_;
  if (!enabled_) return;
  char took[32];
  std::snprintf(took, sizeof took, "%.1f s", seconds_since(current_start_));
  std::string text = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + progress_name(name) + " " +
                     took + (failed ? " FAILED" : "");
  if (done_ < total_) {
    const double eta = seconds_since(start_) / static_cast<double>(done_) * static_cast<double>(total_ - done_);
    text += ", ETA " + format_eta(eta);
  }
  show(text);
  current_start_ = std::chrono::steady_clock::now();  // without started() (one process), the next one starts now
}

void Progress::close() {
  if (line_open_) out_ << "\n" << std::flush;
  line_open_ = false;
}

}  // namespace gbx

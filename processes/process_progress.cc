#include "processes/process_progress.h"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <utility>

#include "model/clock.h"

namespace gbx {

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
    : Progress(out, mode, terminal, total, Options{}) {}

Progress::Progress(std::ostream& out, const std::string& mode, bool terminal, std::size_t total, Options options)
    : out_(out),
      enabled_(mode == "on" || mode == "auto"),
      terminal_(terminal),
      line_per_benchmark_(mode == "on" && !terminal),
      total_(total),
      options_(std::move(options)),
      start_(options_.now()),
      current_start_(start_),
      last_line_(start_) {
  if (!enabled_ || terminal_ || !options_.ticker) return;
  // The thread takes no signal: SIGINT and SIGTERM must reach the thread that runs the benchmarks,
  // whose waits they interrupt (model/interrupt.h).
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &previous);
  ticker_ = std::thread([this] { run_ticker(); });
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

Progress::~Progress() { stop_ticker(); }

std::string Progress::eta() const {
  if (done_ == 0 || done_ >= total_) return "";
  return ", ETA " + format_eta(seconds_since(start_, options_.now()) / static_cast<double>(done_) *
                               static_cast<double>(total_ - done_));
}

void Progress::show(const std::string& text) {
  if (closed_) return;
  if (terminal_) {
    out_ << "\r" << text << "\033[K" << std::flush;  // \033[K clears what a longer line left
    line_open_ = true;
  } else {
    out_ << text << "\n" << std::flush;
  }
  last_line_ = options_.now();
}

void Progress::run_in_order(std::vector<std::string> names) {
  std::lock_guard<std::mutex> lock(mutex_);
  order_ = std::move(names);
  if (done_ < order_.size()) start_locked(order_[done_]);
}

void Progress::start_locked(const std::string& name) {
  running_ = name;
  current_start_ = options_.now();
  // A plain log gets its line from tick() or finished(): one per start would double it.
  if (!enabled_ || !terminal_) return;
  show("[" + std::to_string(done_ + 1) + "/" + std::to_string(total_) + "] " + progress_name(name) + " ..." + eta());
}

void Progress::started(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  start_locked(name);
}

void Progress::finished(const std::string& name, bool failed) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  char took[32];
  std::snprintf(took, sizeof took, "%.1f s", seconds_since(current_start_, options_.now()));
  const std::string text = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + progress_name(name) +
                           " " + took + (failed ? " FAILED" : "") + eta();
  // In this process the next one starts now, and the order says which, if it was the order's so far:
  // a finished name out of order (random interleaving) leaves what runs unnamed rather than misnamed.
  std::string next;
  if (!order_.empty() && order_.size() >= done_ && order_[done_ - 1] == name) {
    if (done_ < order_.size()) next = order_[done_];
  } else {
    order_.clear();
  }
  running_.clear();
  current_start_ = options_.now();  // without started() (one process), the next one starts now
  if (!enabled_) return;
  if (line_per_benchmark_ || (terminal_ && next.empty())) show(text);
  if (!next.empty()) start_locked(next);
}

void Progress::tick() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!enabled_ || terminal_ || closed_) return;
  if (options_.now() - last_line_ < options_.interval) return;
  const std::string elapsed = format_eta(seconds_since(start_, options_.now())) + " elapsed";
  if (running_.empty()) {
    show("[" + std::to_string(done_) + "/" + std::to_string(total_) + "] done, " + elapsed + eta());
  } else {
    show("[" + std::to_string(done_ + 1) + "/" + std::to_string(total_) + "] " + progress_name(running_) +
         " running for " + format_eta(seconds_since(current_start_, options_.now())) + ", " + elapsed + eta());
  }
}

void Progress::run_ticker() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!closed_) {
    const auto due = last_line_ + std::chrono::duration_cast<Clock::duration>(options_.interval);
    if (wake_.wait_until(lock, due, [this] { return closed_; })) break;
    lock.unlock();
    tick();
    lock.lock();
  }
}

void Progress::stop_ticker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void Progress::close() {
  stop_ticker();
  std::lock_guard<std::mutex> lock(mutex_);
  if (line_open_) out_ << "\n" << std::flush;
  line_open_ = false;
}

}  // namespace gbx

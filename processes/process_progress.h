#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gbx {

// Progress of a suite on stderr, naming the benchmark running now. On a terminal one line is
// rewritten in place: "[12/65] gemm/naive/m:256 ...", then its time and the ETA when it finishes.
// Elsewhere (a CI log) a plain line is written at least every interval, so that a long run is never
// silent: "[12/65] gemm/naive/m:256 running for 14s, 1m20s elapsed, ETA 5m10s"; with mode "on", each
// finished benchmark gets a line too.
class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  struct Options {
    // The longest a plain log goes without a line while something runs.
    std::chrono::duration<double> interval = std::chrono::seconds(10);
    // The time; a test gives its own clock, calls tick() by hand and turns the thread off.
    std::function<Clock::time_point()> now = [] { return Clock::now(); };
    // A thread that calls tick() when the interval is up; only for plain lines, which need no event.
    bool ticker = true;
  };

  // mode: "auto" (on a terminal, the rewritten line; elsewhere, the line every interval), "on" (also a
  // line per finished benchmark when not a terminal) or "off"; terminal: whether out is a TTY.
  Progress(std::ostream& out, const std::string& mode, bool terminal, std::size_t total);
  Progress(std::ostream& out, const std::string& mode, bool terminal, std::size_t total, Options options);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // The selection in the order it runs, for a run in this process, which tells only when a benchmark
  // finishes: the first is named running now, and after each one finishes, the next.
  void run_in_order(std::vector<std::string> names);
  void started(const std::string& name);
  // failed: the benchmark failed or its process died; the line says so.
  void finished(const std::string& name, bool failed);
  // A plain line naming what runs, if the interval has passed since the last line. The thread calls it.
  void tick();
  // Ends the rewritten line, if any, and stops the thread: nothing is written after it.
  void close();

  bool enabled() const { return enabled_; }

 private:
  std::ostream& out_;
  bool enabled_;
  bool terminal_;
  bool line_per_benchmark_;
  std::size_t total_;
  Options options_;
  std::size_t done_ = 0;
  bool line_open_ = false;
  bool closed_ = false;
  std::string running_;  // empty: not known
  std::vector<std::string> order_;
  Clock::time_point start_;
  Clock::time_point current_start_;
  Clock::time_point last_line_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread ticker_;

  void show(const std::string& text);
  void start_locked(const std::string& name);
  void run_ticker();
  void stop_ticker();
  std::string eta() const;
};

// "45s", "1m20s", "2h03m": a duration as a person reads an ETA.
std::string format_eta(double seconds);

// Shortens a benchmark name for the progress line: drops "/iterations:1/manual_time".
std::string progress_name(const std::string& name);

}  // namespace gbx

#pragma once

namespace gbx {

// Which clock produced a sample; recorded with every measurement.
// simulated: the tests' timer (tests/support/simulated_timer.h), named in the records they write.
enum class TimerKind { cuda_event, host_wall, cpu, simulated };

const char* to_string(TimerKind kind);

// Brackets one timed region at a time. A sample is start(), the runs, stop(), elapsed_seconds().
class Timer {
 public:
  virtual ~Timer() = default;

  virtual void start() = 0;
  virtual void stop() = 0;
  // Seconds between the last start() and stop(); may block until the region has finished.
  virtual double elapsed_seconds() = 0;
  // The smallest interval the timer can tell apart from zero.
  virtual double resolution_seconds() const = 0;
  virtual TimerKind kind() const = 0;
};

}  // namespace gbx

#pragma once

#include "model/measurement.h"

namespace gbx::detail {

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

}  // namespace gbx::detail

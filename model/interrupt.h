#pragma once

#include <stdexcept>

namespace gbx {

// SIGINT and SIGTERM ask the run to stop: the benchmark in progress stops at its next run and is
// dropped, later ones are not started, and the driver still writes what had finished. A second
// signal ends the process at once.
void install_interrupt_handlers();
// Runs cleanup (which must be async-signal-safe) before a second signal ends the process.
void set_interrupt_cleanup(void (*cleanup)());
bool interrupt_requested();
// The signal that asked, or 0.
int interrupt_signal();
// For tests: forget an earlier request.
void clear_interrupt();

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace gbx

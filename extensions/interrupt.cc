#include "extensions/interrupt.h"

#include <csignal>

namespace gbx {

namespace {

volatile std::sig_atomic_t requested_signal = 0;

extern "C" void on_interrupt(int signal) {
  requested_signal = signal;
  // Restore the default action so that a second signal is not ignored.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
}

bool interrupt_requested() { return requested_signal != 0; }

int interrupt_signal() { return static_cast<int>(requested_signal); }

void clear_interrupt() { requested_signal = 0; }

}  // namespace gbx

#include "model/interrupt.h"

#include <pthread.h>
#include <signal.h>

#include <csignal>

namespace gbx {

namespace {

volatile std::sig_atomic_t requested_signal = 0;
void (*cleanup_on_second_signal)() = nullptr;

extern "C" void on_interrupt(int signal) {
  if (requested_signal == 0) {
    requested_signal = signal;
    return;
  }
  // A second signal ends the process at once, as its default action would, after the cleanup.
  if (cleanup_on_second_signal != nullptr) cleanup_on_second_signal();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  // A parent may start the run with them blocked; one already pending reaches the handler now.
  sigset_t interrupts;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &interrupts, nullptr);
}

void set_interrupt_cleanup(void (*cleanup)()) { cleanup_on_second_signal = cleanup; }

bool interrupt_requested() { return requested_signal != 0; }

int interrupt_signal() { return static_cast<int>(requested_signal); }

void clear_interrupt() { requested_signal = 0; }

}  // namespace gbx

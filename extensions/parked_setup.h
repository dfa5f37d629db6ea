#pragma once

// A short-form benchmark held set up between a worker's blocks (keep mode, runner/worker_child.h).
// The short form's setup is the author's function, and its inputs are that function's locals, so
// holding them means not returning: the function runs on a thread of its own, which, after each
// measurement inside state.exec(), waits there until the worker asks for another measurement or lets
// it return. The caller's thread and the parked thread take turns; never both run.
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace gbx::detail {

class ParkedSetup {
 public:
  ParkedSetup() = default;
  ParkedSetup(const ParkedSetup&) = delete;
  ParkedSetup& operator=(const ParkedSetup&) = delete;
  ~ParkedSetup();

  // Runs body on a new thread and returns when it has parked (after its first measurement) or ended;
  // what body threw is rethrown here. Not while a body is started.
  void start(std::function<void()> body);
  // On the parked thread, after a measurement: hands the turn back and waits. True: measure again.
  // False: return, as the body is let go. Outside a parked body (the usual call), false at once.
  bool park();
  // The parked body measures again; returns when it has parked again or ended, rethrowing what it threw.
  void resume();
  // Lets the body return and joins its thread. What it throws from here on is returned, not thrown.
  std::exception_ptr release() noexcept;
  // The body is waiting in park().
  bool parked() const;
  // This thread is the parked body's.
  bool on_parked_thread() const;

 private:
  // Waits until the body parks or ends (joining it then) and returns what it threw.
  std::exception_ptr take_turn_back(std::unique_lock<std::mutex>& lock);
  // A parked body's next turn: measure again (true) or return; nothing when none is parked.
  std::exception_ptr order(bool again);
  mutable std::mutex mutex_;
  std::condition_variable turn_changed_;
  std::thread thread_;
  bool body_turn_ = false;  // whose turn: the body's, or the caller's
  bool parked_ = false;
  bool again_ = false;  // the order park() returns
  std::exception_ptr error_;
};

}  // namespace gbx::detail

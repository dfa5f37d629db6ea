#pragma once

// A worker's blocks (runner/worker_child.h): consecutive calls of one benchmark share its setup, so that
// a block costs its warm-up and samples, not an allocation and a fill of its inputs each time. While a
// keeper is installed, a class-form fixture stays set up after a measurement, and the next call with
// the same arguments measures again without setup() and without the accuracy check (the record keeps
// the first call's); any other call, or release_held(), tears it down first. A CPU short form holds
// too: its function waits inside state.exec() on a thread of its own (parked_setup.h). Rotation,
// failures and failed checks never hold; a CUDA short form, or any under rotation, is set up again,
// from kept random inputs (random_inputs.h), and a call with the same arguments as the one before
// takes that call's host arrays again (zeroed) and keeps its passed accuracy check instead of running it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "extensions/pair_memory.h"
#include "model/accuracy.h"
#include "model/run_record.h"

namespace gbx {
class FixtureBase;
}

namespace gbx::detail {

// One per worker process, owned by the worker (runner/worker_child.cc) and installed while it lives:
// the measurement finds it through installed(). Without one, every call sets up, checks and tears down.
class SetupKeeper {
 public:
  // Installs this keeper and keeps random inputs (random_inputs.h); one at a time.
  SetupKeeper();
  // Tears down what is held, frees what is kept, and uninstalls.
  ~SetupKeeper();
  SetupKeeper(const SetupKeeper&) = delete;
  SetupKeeper& operator=(const SetupKeeper&) = delete;

  // The keeper installed in this process, or null.
  static SetupKeeper* installed();

  // Tears the held setup down, if one is held.
  void release_held();
  // What the setup being measured got from sharing its arrays with the worker's pair partner
  // (pair_memory.h); reset when a new setup starts.
  const PairMemoryOutcome& pair_memory() const { return pair_memory_; }

 private:
  friend class FixtureRun;
  // The short form measured last: the accuracy check it passed, and its host arrays, which its next
  // call with the same arguments takes again (a memset, not a page fault and a clear per page).
  struct LastShortForm {
    const FixtureBase* fixture = nullptr;
    std::vector<std::int64_t> args;
    std::optional<Accuracy> passed_check;
    std::vector<std::pair<std::size_t, std::shared_ptr<void>>> host_arrays;
  };
  // A kept host array of exactly bytes, zeroed, or null.
  std::shared_ptr<void> take_kept_host_array(std::size_t bytes);

  FixtureBase* held_ = nullptr;
  std::vector<std::int64_t> held_args_;  // the held setup's arguments
  RunRecord held_record_;                // and its first call's record: declarations and accuracy
  LastShortForm last_short_form_;
  PairMemoryOutcome pair_memory_;
};

}  // namespace gbx::detail

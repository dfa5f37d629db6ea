#pragma once

// What FixtureBase keeps from its authors: the state of a fixture's measurement, and the measurement
// itself as named steps (in the manner of google/benchmark's BenchmarkRunner). A private header of
// the measurement layer; the author's view is fixture.h's hooks.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "extensions/fixture.h"
#include "model/accuracy.h"
#include "model/protocol.h"
#include "model/run_record.h"

namespace gbx::detail {

class ParkedSetup;
class SetupKeeper;

// An in-place output (declare_inout) and the copy of its values before the first run.
struct InOut {
  void* data = nullptr;
  std::size_t bytes = 0;
  bool on_device = false;
  void* saved = nullptr;
};

// One measurement's state: value-initialised when a call sets up afresh, kept as it is by the calls
// that measure a held setup again (setup_keeper.h).
struct FixtureCall {
  RunRecord record;
  const benchmark::State* google_benchmark = nullptr;  // Google Benchmark's state of the call under way
  std::size_t host_bytes = 0;
  std::uint64_t fills = 0;  // fill_random() calls so far in this setup()
  std::string accuracy_reference;
  double accuracy_tolerance = -1.0;      // negative: no accuracy declared
  bool measured = false;                 // measure_after_setup ran in this call
  bool reusing_setup = false;            // this call measures a held setup
  bool repeating_short_form = false;     // the short form called again by a worker, with the same arguments
  std::function<void()> poison_hook;     // the short form's check: what to poison
  std::function<Accuracy()> check_hook;  // and how to compare
  std::vector<InOut> inout;              // the in-place outputs (declare_inout)
  bool check_output_inout = false;       // the short form's checked output is one of them
  std::vector<std::unique_ptr<RotatingArray>> rotating;  // the arrays --gbx_cache=rotate cycles through
  std::size_t rotation_copies = 0;
  std::size_t rotation_next = 0;
  std::vector<std::pair<std::size_t, std::shared_ptr<void>>> host_arrays;  // a worker's: for its pair
  std::vector<std::shared_ptr<void>> owned;                                // the call's allocations
};

// Everything a fixture holds besides its author's members: its registration, the call under way, and
// a short form's function held on a thread of its own (parked_setup.h). The parked thread goes first,
// while the call's memory, which the function may still read, is alive.
struct FixtureState {
  FixtureIdentity identity;
  FixtureCall call;
  std::shared_ptr<ParkedSetup> parked;
  ~FixtureState();
};

// One Google Benchmark call of a fixture: the whole gbx measurement, in named steps. A worker's keeper
// (setup_keeper.h), where one is installed, holds a setup between calls; the steps ask it.
class FixtureRun {
 public:
  FixtureRun(FixtureBase& fixture, benchmark::State& google_benchmark, SetupKeeper* keeper);
  // argument_count: how many state.range(i) the registration declared.
  void measure(int argument_count);

  static FixtureState& state_of(FixtureBase& fixture) { return *fixture.state_; }
  static const FixtureState& state_of(const FixtureBase& fixture) { return *fixture.state_; }
  // After setup(): the measurement, the accuracy check and the load sweep. The short form calls it
  // from state.exec(), inside setup(), with its own run.
  static void measure_after_setup(FixtureBase& fixture, const benchmark::State& google_benchmark,
                                  const std::function<void()>& run);
  // A worker's held setup is let go: the parked function returns, teardown() and release() run.
  static void tear_down_held(FixtureBase& fixture) noexcept;

  // The short form: its function held on a parked thread, where a worker keeps setups and nothing
  // rotates; on that thread after a measurement, whether to measure again.
  static bool may_park(const FixtureBase& fixture);
  static void park_setup(FixtureBase& fixture, std::function<void()> body);
  static bool park_measured(FixtureBase& fixture);
  // A worker's repeated short form takes its last call's host arrays again (zeroed_host_bytes).
  static std::shared_ptr<void> kept_host_array(SetupKeeper* keeper, const FixtureCall& call, std::size_t bytes);
  // The author's hooks, for the short form's State, which declares through them.
  static void* zeroed_host_bytes(FixtureBase& fixture, std::size_t bytes) { return fixture.zeroed_host_bytes(bytes); }
  template <class T>
  static void fill_random(FixtureBase& fixture, Span<T> values, T low, T high) {
    fixture.fill_random(values, low, high);
  }
  static void declare_flops_per_run(FixtureBase& fixture, double flops) { fixture.declare_flops_per_run(flops); }
  static void declare_bytes_per_run(FixtureBase& fixture, double bytes) { fixture.declare_bytes_per_run(bytes); }
  static void declare_precision(FixtureBase& fixture, std::string precision) {
    fixture.declare_precision(std::move(precision));
  }
  static void declare_problem(FixtureBase& fixture, std::string problem) {
    fixture.declare_problem(std::move(problem));
  }
  static void declare_seed(FixtureBase& fixture, std::uint64_t seed) { fixture.declare_seed(seed); }
  static std::uint64_t seed(const FixtureBase& fixture) { return fixture.seed(); }
  static void declare_accuracy(FixtureBase& fixture, std::string reference, double tolerance) {
    fixture.declare_accuracy(std::move(reference), tolerance);
  }
  static void declare_inout_bytes(FixtureBase& fixture, void* data, std::size_t bytes, bool on_device) {
    fixture.declare_inout_bytes(data, bytes, on_device);
  }
  // For the short form's check: whether output is in place (then not poisoned); remembered for the note.
  static bool checks_inout(FixtureBase& fixture, const void* output);
  // The backend's and the author's hooks, for the load sweep's workers (load/fixture_load.h).
  static const char* region(const FixtureBase& fixture) { return fixture.region(); }
  static void acquire(FixtureBase& fixture) { fixture.acquire(); }
  static void setup(FixtureBase& fixture, const benchmark::State& state) { fixture.setup(state); }
  static void run_and_wait(FixtureBase& fixture) {
    fixture.run();
    fixture.synchronize();
  }
  static void teardown(FixtureBase& fixture) { fixture.teardown(); }
  static void release(FixtureBase& fixture) noexcept { fixture.release(); }

 private:
  // How a call that set up afresh ended.
  struct Outcome {
    std::string failure;
    bool acquired = false;
    bool set_up = false;
    bool short_form = false;  // its setup() was the measurement
    bool parked = false;      // a short form's function, waiting on its parked thread
  };
  void measure_held();
  void begin_call();
  void name_the_record();
  Outcome set_up_and_measure();
  // The worker's keeper remembers a short form's call (its check, its arrays); true when it holds it.
  void remember_short_form(const Outcome& outcome);
  bool hold(const Outcome& outcome);
  void tear_down(Outcome& outcome);
  // The call's end: the record to the sample channel, and Google Benchmark's one iteration (or skip).
  void publish(const std::string& failure);

  // The steps of measure_after_setup.
  static MeasurementHooks hooks_for(FixtureBase& fixture, const Protocol& protocol, bool rotating,
                                    const std::function<void()>& run);
  static void share_with_pair(FixtureBase& fixture, bool rotating);
  static void check_accuracy(FixtureBase& fixture, const std::function<void()>& run);
  static void record_stopping(RunRecord& record, const Protocol& protocol);
  // --gbx_cache=rotate: the copies; false when there is nothing to rotate (the class form declares no
  // arrays), in which case the benchmark runs cold.
  static bool start_rotation(FixtureBase& fixture, Measurement& m);
  static void advance_rotation(FixtureCall& call);
  static void stop_rotation(FixtureCall& call);
  // The in-place outputs' values before the first run, and put back before the checked run.
  static void save_inout(FixtureBase& fixture);
  static void restore_inout(FixtureBase& fixture);
  // The accuracy note for a failed check with NaN outputs that the kernel may have read, poisoned.
  static void explain_nan(const FixtureCall& call, Accuracy& accuracy);
  static std::exception_ptr release_parked(FixtureState& state) noexcept;

  FixtureBase& fixture_;
  FixtureState& state_;
  benchmark::State& google_benchmark_;
  SetupKeeper* keeper_;
  std::vector<std::int64_t> args_;
};

}  // namespace gbx::detail

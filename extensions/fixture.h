#pragma once

#include <benchmark/benchmark.h>

#include <array>
#include <optional>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "extensions/measurement.h"
#include "extensions/timer.h"
#include "model/accuracy.h"
#include "model/axis_value.h"
#include "model/load_plan.h"
#include "model/run_record.h"
#include "model/span.h"

namespace gbx {

class CpuCacheFlusher;
class State;
class CudaState;

namespace detail {

class ParkedSetup;

// An array whose runs may read any of several copies (--gbx_cache=rotate): `data` is rebound to
// copy k before each run. Owned by the fixture for one benchmark call.
class RotatingArray {
 public:
  virtual ~RotatingArray() = default;
  virtual void bind(std::size_t copy) = 0;
  virtual std::size_t bytes() const = 0;
  virtual bool on_device() const = 0;
  // Adds a copy of copy 0's bytes, made by `duplicate`, for bind() to choose.
  virtual void add_copy(void* copy) = 0;
  virtual const void* first() const = 0;
};

// The bytes of count elements of element_bytes each, for the array helpers (host_array, device_array):
// throws std::length_error naming helper for a negative count (a signed count converted to size_t)
// or a product past the address space, where the allocation would be too small and the run crash.
std::size_t array_bytes(const char* helper, std::size_t count, std::size_t element_bytes);
std::size_t array_bytes(const char* helper, std::int64_t count, std::size_t element_bytes);

}  // namespace detail

// Thrown when a benchmark cannot run on this machine; it is reported as skipped, not failed.
// code names the cause for tools (e.g. "no_cuda_device"); the message is the plain reason.
class Unavailable : public std::runtime_error {
 public:
  explicit Unavailable(const std::string& reason, std::string code = "unavailable")
      : std::runtime_error(reason), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// What Google Benchmark's public RegisterBenchmark returns, on which ->Arg(...) and friends chain:
// benchmark::Benchmark since 1.9, benchmark::internal::Benchmark in 1.7 and 1.8. Named through the
// function's return type so that gbx compiles against both without spelling either.
using RegisteredBenchmark =
    std::remove_pointer_t<decltype(benchmark::RegisterBenchmark("", std::declval<void (*)(benchmark::State&)>()))>;

namespace detail {

// The timing backend's hooks: what a CPU or a CUDA benchmark needs that its author never writes (the
// timer, the flush, the device, the stream). A type apart from the author's hooks (FixtureBase's
// setup and run, or the short form's gbx::State); CpuFixture and CudaFixture implement it.
class Backend {
 public:
  virtual ~Backend() = default;

 protected:
  Backend() = default;
  virtual const char* region() const = 0;
  // Runs before setup(); throw Unavailable when the backend cannot run here.
  virtual void acquire() {}
  virtual void release() noexcept {}
  virtual std::unique_ptr<Timer> make_timer() = 0;
  virtual void flush_caches() = 0;
  virtual double now_seconds();
  // CUDA's UUID bytes of the device the benchmark runs on, for the observer's NVML readings.
  virtual std::optional<std::array<unsigned char, 16>> device_uuid() const { return std::nullopt; }
  // Waits for the kernel's last run to finish (the device's stream); CPU runs are synchronous.
  virtual void synchronize() {}
  // Reads the device's memory in use, at the stages the base calls it (after setup, sampling, check).
  virtual void observe_memory() {}
  // The last-level cache that --gbx_cache=rotate must defeat: the CPU's, or the device's L2.
  virtual std::size_t rotation_cache_bytes() const;
};

}  // namespace detail

// The compiled base of every gbx fixture: timing, warm-up, flushes, batching, samples and skipping.
// The backend (CPU, CUDA: the Backend hooks) supplies a timer and a flush; the author supplies setup,
// run and declarations (the hooks below), or, in the short form, a function of gbx::State.
class FixtureBase : protected detail::Backend {
 public:
  virtual ~FixtureBase() = default;
  FixtureBase(const FixtureBase&) = delete;
  FixtureBase& operator=(const FixtureBase&) = delete;

  // Called once at registration: the benchmark is named "<family>/<variant>".
  void identify(const std::string& family, const std::string& variant);
  // The short form's parameter axes: the name gains "/n:1024/T:float", the problem the axes that
  // are not the variant's, the variant those that are.
  void set_axes(std::vector<detail::AxisValue> axes);
  std::string name() const;

  // One Google Benchmark call: the whole gbx measurement. argument_count: how many state.range(i)
  // the registration declared.
  void measure_benchmark(benchmark::State& state, int argument_count);

  // The load sweep (docs/load.md): how to make more instances of this fixture (the workers), and the
  // sweep the registration asks for after the usual measurement.
  void set_instance_factory(std::function<std::unique_ptr<FixtureBase>()> make_another) {
    make_another_ = std::move(make_another);
  }
  void enable_load(LoadPlan plan) { load_plan_ = std::make_shared<LoadPlan>(std::move(plan)); }

  // A worker's blocks (runner/worker_child.h): with keep on, a class-form fixture stays set up after a
  // measurement, and the next call with the same arguments measures again without setup() and without
  // the accuracy check (the record keeps the first call's); any other call, or release_held(), tears it
  // down first. A CPU short form holds too: its function waits inside state.exec() on a thread of its
  // own (parked_setup.h). Rotation, failures and failed checks never hold; a CUDA short form, or any
  // under rotation, is set up again, from kept random inputs (random_inputs.h), and a call with the
  // same arguments as the one before takes that call's host arrays again (zeroed) and keeps its passed
  // accuracy check instead of running it.
  static void keep_setup_between_calls(bool keep);
  static void release_held();

 protected:
  FixtureBase() = default;

  // --- for kernel authors -------------------------------------------------------------
  // Allocate, fill the inputs and declare the problem; state.range(i) are the arguments.
  virtual void setup(const benchmark::State& state) = 0;
  // One run of the kernel: the one name gbx gives it, on every backend. On the CPU, keep its result
  // observable (benchmark::DoNotOptimize) so it is not elided; on CUDA, enqueue it on stream() and
  // do not synchronise.
  virtual void run() = 0;
  virtual void teardown() {}

  void declare_problem(std::string problem) { record_.problem = std::move(problem); }
  void declare_flops_per_run(double flops) { record_.flops_per_run = flops; }
  void declare_bytes_per_run(double bytes) { record_.bytes_per_run = bytes; }
  // The seed of the random inputs; fill_random() uses it and the record keeps it.
  void declare_seed(std::uint64_t seed) { record_.seed = seed; }
  std::uint64_t seed() const { return record_.seed; }
  // Zeroed host memory, counted in the record and freed after the benchmark.
  template <class T>
  Span<T> host_array(std::size_t count) {
    static_assert(std::is_trivially_destructible<T>::value, "host arrays hold plain values");
    T* data = static_cast<T*>(zeroed_host_bytes(detail::array_bytes("host_array", count, sizeof(T))));
    std::uninitialized_value_construct_n(data, count);
    return Span<T>{data, count};
  }
  // Zeroed host bytes, counted and owned as host_array's (in 2 MiB pages when large: host_memory.h).
  void* zeroed_host_bytes(std::size_t bytes);
  // Seeded uniform values in [low, high): the i-th call in setup() draws from seed() + i, so that
  // inputs differ from each other and every run of the benchmark gets the same ones.
  void fill_random(Span<float> values, float low = -1.0f, float high = 1.0f);
  void fill_random(Span<double> values, double low = -1.0, double high = 1.0);
  // The arithmetic's precision (default fp32): recorded, and it picks the peak FLOP/s.
  void declare_precision(std::string precision) { record_.precision = std::move(precision); }

  // Accuracy. Declare the reference in setup(); after sampling, the base calls poison_outputs(),
  // runs the kernel once more, and records what check_output() finds. Outputs poisoned with NaN
  // make an element the kernel never writes fail the check.
  void declare_accuracy(std::string reference, double tolerance);
  virtual void poison_outputs();
  virtual Accuracy check_output();
  // An output the kernel also reads (y = a x + y), declared in setup(): the base saves its values
  // before the first run and, before the checked run, puts them back instead of poisoning them, so
  // that the check sees one run on the original values; the reference must come from those values.
  // Do not poison it in poison_outputs(). A CudaFixture declares device arrays: declare_device_inout.
  template <class T>
  void declare_inout(Span<T> values) {
    declare_inout_bytes(values.data, values.bytes(), false);
  }
  void declare_inout_bytes(void* data, std::size_t bytes, bool on_device);
  // Copies bytes between two arrays of this benchmark call (both on the device when on_device).
  virtual void copy_bytes(void* to, const void* from, std::size_t bytes, bool on_device);

  // After setup(): the measurement, the accuracy check and the load sweep. The short form calls it
  // from state.exec(), inside setup(), with its own run.
  void measure_after_setup(const benchmark::State& state, std::function<void()> run);
  // Arrays whose copies --gbx_cache=rotate cycles through.
  void add_rotating_array(std::unique_ptr<detail::RotatingArray> array) { rotating_.push_back(std::move(array)); }
  // A copy of bytes at from, owned by this benchmark call; a CUDA fixture copies device arrays.
  virtual void* duplicate(const void* from, std::size_t bytes, bool on_device);
  // Keep mode without rotation: a short form's setup may run body on a parked thread (parked_setup.h),
  // which then holds it between calls as the class form's is held.
  bool may_park() const;
  void park_setup(std::function<void()> body);

  // --- bookkeeping the backends share -------------------------------------------------------
  // What the record says about memory; the base fills host_peak_bytes.
  virtual detail::MemoryUsage memory_usage() const;
  std::size_t host_bytes() const { return host_bytes_; }
  // Ties an allocation's lifetime to the current benchmark call.
  void keep(std::shared_ptr<void> owner) { owned_.push_back(std::move(owner)); }

 private:
  friend class FixtureLoadAccess;
  friend class State;
  friend class CudaState;
  // Sets up the copies for --gbx_cache=rotate; false when there is nothing to rotate (the class form
  // declares no arrays), in which case the benchmark runs cold.
  bool start_rotation(detail::Measurement& m);
  void advance_rotation();
  void stop_rotation();
  std::vector<detail::AxisValue> axes_;
  bool short_form_ = false;  // registered by the short form (set_axes), which may declare axes
  // The in-place outputs (declare_inout) and the copies of their values before the first run.
  struct InOut {
    void* data;
    std::size_t bytes;
    bool on_device;
    void* saved;
  };
  std::vector<InOut> inout_;
  bool check_output_inout_ = false;  // the short form's checked output is one of them
  void save_inout();
  void restore_inout();
  // For the short form's check: whether output is in-place (then not poisoned); remembered for the note.
  bool checks_inout(const void* output);
  // The accuracy note for a failed check with NaN outputs that the kernel may have read, poisoned.
  void explain_nan(Accuracy& accuracy) const;
  std::vector<std::unique_ptr<detail::RotatingArray>> rotating_;
  std::size_t rotation_copies_ = 0;
  std::size_t rotation_next_ = 0;
  bool measured_ = false;              // measure_after_setup ran in this call
  bool reusing_setup_ = false;         // this call measures a held setup (keep_setup_between_calls)
  bool repeating_short_form_ = false;  // the short form called again in keep mode, with the same arguments
  std::vector<std::pair<std::size_t, std::shared_ptr<void>>> host_arrays_;  // this call's, in keep mode
  std::vector<std::int64_t> held_args_;                                     // the held setup's arguments
  std::shared_ptr<detail::ParkedSetup> parked_;   // the short form's function, held in keep mode
  const benchmark::State* call_state_ = nullptr;  // Google Benchmark's state of the call under way
  // On the parked thread, after a measurement: true when the held short form is to measure again.
  bool park_measured();
  std::exception_ptr release_parked() noexcept;
  detail::RunRecord held_record_;  // and its first call's record: declarations and accuracy
  void tear_down_held() noexcept;
  void measure_held(benchmark::State& state);
  // The call's end: the record to the sample channel, and Google Benchmark's one iteration (or skip).
  void publish_call(benchmark::State& state, const std::string& failure);
  std::function<void()> poison_hook_;     // the short form's check: what to poison
  std::function<Accuracy()> check_hook_;  // and how to compare
  std::string family_;
  std::string variant_;
  detail::RunRecord record_;
  std::function<std::unique_ptr<FixtureBase>()> make_another_;
  std::shared_ptr<const LoadPlan> load_plan_;
  std::string accuracy_reference_;
  double accuracy_tolerance_ = -1.0;  // negative: no accuracy declared
  std::size_t host_bytes_ = 0;
  std::uint64_t fills_ = 0;  // fill_random() calls so far in this setup()
  std::vector<std::shared_ptr<void>> owned_;
};

// Kernels that run on the CPU, timed with the steady clock.
class CpuFixture : public FixtureBase {
 public:
  CpuFixture();
  ~CpuFixture() override;

 protected:
  const char* region() const override { return "cpu"; }
  std::unique_ptr<detail::Timer> make_timer() override;
  void flush_caches() override;
  void release() noexcept override;

 private:
  std::unique_ptr<CpuCacheFlusher> flusher_;
};

// Registers the fixture, named by identify(), through benchmark::RegisterBenchmark with manual time
// and one Google Benchmark iteration: each iteration is one whole gbx measurement. Google Benchmark's
// registry keeps the fixture until the program ends.
RegisteredBenchmark* register_fixture(std::unique_ptr<FixtureBase> fixture);

// Registers fixture F as "<family>/<variant>". Chain ->Arg(...) and friends on the result.
template <class F>
RegisteredBenchmark* register_fixture(const std::string& family, const std::string& variant) {
  auto fixture = std::make_unique<F>();
  fixture->identify(family, variant);
  fixture->set_instance_factory([] { return std::unique_ptr<FixtureBase>(std::make_unique<F>()); });
  return register_fixture(std::move(fixture));
}

// The same, with a load sweep after each measurement (docs/load.md); the --gbx_* load flags override
// the plan's values.
template <class F>
RegisteredBenchmark* register_fixture_under_load(const std::string& family, const std::string& variant, LoadPlan plan) {
  auto fixture = std::make_unique<F>();
  fixture->identify(family, variant);
  fixture->set_instance_factory([] { return std::unique_ptr<FixtureBase>(std::make_unique<F>()); });
  fixture->enable_load(std::move(plan));
  return register_fixture(std::move(fixture));
}

}  // namespace gbx

#define GBX_CONCAT_INNER(a, b) a##b
#define GBX_CONCAT(a, b) GBX_CONCAT_INNER(a, b)
// The registration macros take a type (a template argument), which cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
// GBX_BENCHMARK(MyFixture, "reduce", "kahan")->Arg(1 << 20);
#define GBX_BENCHMARK(Fixture, family, variant)                                                  \
  [[maybe_unused]] static ::gbx::RegisteredBenchmark* GBX_CONCAT(gbx_registered_, __COUNTER__) = \
      ::gbx::register_fixture<Fixture>(family, variant)
// GBX_BENCHMARK_UNDER_LOAD(MyFixture, "reduce", "kahan", plan)->Arg(1 << 12): with a load sweep.
#define GBX_BENCHMARK_UNDER_LOAD(Fixture, family, variant, plan)                                 \
  [[maybe_unused]] static ::gbx::RegisteredBenchmark* GBX_CONCAT(gbx_registered_, __COUNTER__) = \
      ::gbx::register_fixture_under_load<Fixture>(family, variant, plan)
// NOLINTEND(bugprone-macro-parentheses)

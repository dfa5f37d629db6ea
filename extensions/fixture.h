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
class FixtureBase;

namespace detail {

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

namespace detail {

class FixtureRun;
struct FixtureState;

// What a registration says about its fixture: the name "<family>/<variant>", the short form's axes
// (the name gains "/n:1024/T:float"; the problem is the axes that are not the variant's, the variant
// those that are), and for a load sweep (docs/load.md) how to make more instances and the plan.
struct FixtureIdentity {
  std::string family;
  std::string variant;
  std::vector<AxisValue> axes;
  bool short_form = false;  // registered by the short form, which may declare axes
  std::function<std::unique_ptr<FixtureBase>()> make_another;
  std::shared_ptr<const LoadPlan> load_plan;
  std::string name() const;
};

// Registers the fixture under its identity's name through benchmark::RegisterBenchmark, with manual
// time and one Google Benchmark iteration: each iteration is one whole gbx measurement
// (detail::FixtureRun). Google Benchmark's registry keeps the fixture until the program ends.
RegisteredBenchmark* register_identified(std::unique_ptr<FixtureBase> fixture, FixtureIdentity identity);

}  // namespace detail

// The compiled base of every gbx fixture. The author supplies setup, run and declarations (the hooks
// below); the backend (CPU, CUDA: the Backend hooks) a timer and a flush. Everything else (timing,
// warm-up, flushes, batching, samples, skipping, and a worker's held setups) is detail::FixtureRun's,
// on state the base keeps out of its authors' sight (detail::FixtureState).
class FixtureBase : protected detail::Backend {
 public:
  ~FixtureBase() override;
  FixtureBase(const FixtureBase&) = delete;
  FixtureBase& operator=(const FixtureBase&) = delete;

 protected:
  FixtureBase();

  // --- for kernel authors -------------------------------------------------------------
  // Allocate, fill the inputs and declare the problem; state.range(i) are the arguments.
  virtual void setup(const benchmark::State& state) = 0;
  // One run of the kernel: the one name gbx gives it, on every backend. On the CPU, keep its result
  // observable (benchmark::DoNotOptimize) so it is not elided; on CUDA, enqueue it on stream() and
  // do not synchronise.
  virtual void run() = 0;
  virtual void teardown() {}

  void declare_problem(std::string problem);
  void declare_flops_per_run(double flops);
  void declare_bytes_per_run(double bytes);
  // The seed of the random inputs; fill_random() uses it and the record keeps it.
  void declare_seed(std::uint64_t seed);
  std::uint64_t seed() const;
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
  void declare_precision(std::string precision);

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

  // --- bookkeeping the backends share -------------------------------------------------------
  // Copies bytes between two arrays of this benchmark call (both on the device when on_device).
  virtual void copy_bytes(void* to, const void* from, std::size_t bytes, bool on_device);
  // A copy of bytes at from, owned by this benchmark call; a CUDA fixture copies device arrays.
  virtual void* duplicate(const void* from, std::size_t bytes, bool on_device);
  // What the record says about memory; the base fills host_peak_bytes.
  virtual detail::MemoryUsage memory_usage() const;
  std::size_t host_bytes() const;
  // Ties an allocation's lifetime to the current benchmark call.
  void keep(std::shared_ptr<void> owner);

 private:
  friend class detail::FixtureRun;
  std::unique_ptr<detail::FixtureState> state_;
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

// Registers fixture F as "<family>/<variant>". Chain ->Arg(...) and friends on the result.
template <class F>
RegisteredBenchmark* register_fixture(const std::string& family, const std::string& variant) {
  detail::FixtureIdentity identity;
  identity.family = family;
  identity.variant = variant;
  identity.make_another = [] { return std::unique_ptr<FixtureBase>(std::make_unique<F>()); };
  return detail::register_identified(std::make_unique<F>(), std::move(identity));
}

// The same, with a load sweep after each measurement (docs/load.md); the --gbx_* load flags override
// the plan's values.
template <class F>
RegisteredBenchmark* register_fixture_under_load(const std::string& family, const std::string& variant, LoadPlan plan) {
  detail::FixtureIdentity identity;
  identity.family = family;
  identity.variant = variant;
  identity.make_another = [] { return std::unique_ptr<FixtureBase>(std::make_unique<F>()); };
  identity.load_plan = std::make_shared<LoadPlan>(std::move(plan));
  return detail::register_identified(std::make_unique<F>(), std::move(identity));
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

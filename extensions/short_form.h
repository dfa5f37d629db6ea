#pragma once

// The short form (docs/adding-a-kernel.md): a function of gbx::State&, registered with GBX_BENCH,
// that allocates and fills its inputs through the state and calls state.exec() around the timed
// run. It gets the class form's protocol, samples, record, accuracy check and skipping.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "extensions/axes.h"
#include "extensions/fixture.h"
#include "model/accuracy.h"
#include "model/span.h"

namespace gbx {

// An array the state owns. Take it by reference (auto& x = state.host_array<float>(n)) and read
// x.data inside exec(): under --gbx_cache=rotate, gbx points data at a different copy before each run.
template <class T>
class Array final : public detail::RotatingArray {
 public:
  Array(T* first, std::size_t count, bool device) : data(first), size(count), device_(device), copies_{first} {}
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;

  T* data;
  const std::size_t size;

  T& operator[](std::size_t i) const { return data[i]; }
  T* begin() const { return data; }
  T* end() const { return data + size; }
  Span<T> span() const { return Span<T>{data, size}; }
  operator Span<T>() const { return span(); }  // NOLINT(google-explicit-constructor): an array is a span

  void bind(std::size_t copy) override { data = copies_[copy]; }
  std::size_t bytes() const override { return size * sizeof(T); }
  bool on_device() const override { return device_; }
  void add_copy(void* copy) override { copies_.push_back(static_cast<T*>(copy)); }
  const void* first() const override { return copies_.front(); }

 private:
  bool device_;
  std::vector<T*> copies_;
};

// The kernel author's side of one benchmark call. It holds no timer, no flush and no stream
// management: those are the backend's (CpuFixture, CudaFixture), which the author never sees.
class State {
 public:
  State(FixtureBase& fixture, const AxisValues& axes, const benchmark::State& google_benchmark)
      : fixture_(fixture), axes_(axes), google_benchmark_(google_benchmark) {}
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  virtual ~State() = default;

  // The axes' values for this benchmark (declared on the registration, or by --gbx_axis).
  std::int64_t get_int(const std::string& axis) const { return axes_.get_int(axis); }
  double get_float(const std::string& axis) const { return axes_.get_float(axis); }
  const std::string& get_string(const std::string& axis) const { return axes_.get_string(axis); }
  const AxisValues& axes() const { return axes_; }

  // Zeroed host memory, counted in the record and freed after the benchmark. A negative count, or one
  // too large to allocate, fails the benchmark with a message.
  template <class T>
  Array<T>& host_array(std::int64_t count) {
    detail::array_bytes("host_array", count, sizeof(T));
    const Span<T> span = host_buffer<T>(static_cast<std::size_t>(count));
    return adopt(std::make_unique<Array<T>>(span.data, span.size, false));
  }
  // Seeded uniform values in [low, high); the i-th fill draws from seed() + i.
  void fill_random(Span<float> values, float low = -1.0f, float high = 1.0f);
  void fill_random(Span<double> values, double low = -1.0, double high = 1.0);
  // The same, returning the array: auto& x = state.fill_random(state.host_array<float>(n)).
  template <class T>
  Array<T>& fill_random(Array<T>& values) {
    fill_random(values.span());
    return values;
  }

  void declare_flops_per_run(double flops);
  void declare_bytes_per_run(double bytes);
  void declare_precision(std::string precision);
  // The problem is the family and the axes that are not the variant's; declare one to override it.
  void declare_problem(std::string problem);
  void declare_seed(std::uint64_t seed);
  std::uint64_t seed() const;
  const std::string& problem() const;

  // This benchmark cannot run here: recorded as skipped, not failed.
  [[noreturn]] void skip(const std::string& reason) const { throw Unavailable(reason); }

  // Accuracy, optional: after sampling, output is poisoned with NaN, the kernel runs once more, and
  // output is compared with reference(), computed once per problem and seed and shared by every
  // variant, from the inputs as that run finds them. tolerance < 0: tolerance_for(precision,
  // accumulated_terms). An output the kernel also reads must be declared with inout().
  void check(Span<float> output, const std::function<std::vector<double>()>& reference, double tolerance = -1.0,
             std::size_t accumulated_terms = 1);
  void check(Span<double> output, const std::function<std::vector<double>()>& reference, double tolerance = -1.0,
             std::size_t accumulated_terms = 1);

  // An output that is also an input (y = a x + y), declared before exec(): its values are saved before
  // the first run and put back, instead of NaN, before the checked run, so that the check compares
  // one run on the original values with a reference computed from them (reference() reads the array
  // then). Sampling runs the kernel on its own output over and over: its values drift, as in place.
  template <class T>
  Array<T>& inout(Array<T>& values) {
    declare_inout(values.data, values.bytes(), values.on_device());
    return values;
  }

  // The measurement: warm-up, batching, samples and the check, with run as one run of the kernel.
  // Call it once; the arrays and everything run reads must outlive it (locals of the function do).
  void exec(std::function<void()> run);

 protected:
  // For a backend's state (CudaState): its arrays, rotated like host arrays; its check; a host buffer
  // of the call that is not rotated; and whether an output was declared in place.
  template <class T>
  Array<T>& adopt(std::unique_ptr<Array<T>> array) {
    Array<T>& kept = *array;
    adopt_array(std::move(array));
    return kept;
  }
  void declare_check(std::function<void()> poison, std::function<Accuracy()> compare, double tolerance,
                     std::size_t accumulated_terms);
  // The reference, cached under the problem (the axes that are not the variant's) and the seed.
  const std::vector<double>& reference(const std::function<std::vector<double>()>& compute) const;
  template <class T>
  Span<T> host_buffer(std::size_t count) {
    static_assert(std::is_trivially_destructible<T>::value, "host arrays hold plain values");
    T* data = static_cast<T*>(zeroed_bytes(detail::array_bytes("host_array", count, sizeof(T))));
    std::uninitialized_value_construct_n(data, count);
    return Span<T>{data, count};
  }
  bool checks_inout(const void* output);

 private:
  void* zeroed_bytes(std::size_t bytes);
  void adopt_array(std::unique_ptr<detail::RotatingArray> array);
  void declare_inout(void* data, std::size_t bytes, bool on_device);
  FixtureBase& fixture_;
  const AxisValues& axes_;
  const benchmark::State& google_benchmark_;
  bool executed_ = false;
};

namespace detail {

// The short form's setup(): call runs the author's function, which must measure (state.exec()). A CPU
// function (may_hold) is held on a thread of its own between a worker's blocks (parked_setup.h).
void set_up_function(FixtureBase& fixture, bool may_hold, std::function<void()> call);

// A fixture of backend Base (CpuFixture, CudaFixture) whose setup() is the author's function.
template <class Base, class StateType>
class FunctionFixture : public Base {
 public:
  FunctionFixture(void (*function)(StateType&), AxisValues axes) : function_(function), axes_(std::move(axes)) {}

 protected:
  void setup(const benchmark::State& google_benchmark) override {
    // Held on the CPU only: a CUDA context is current per thread.
    set_up_function(*this, std::is_same<Base, CpuFixture>::value, [this, &google_benchmark] {
      StateType state(*this, axes_, google_benchmark);
      function_(state);
    });
  }
  void run() override {}  // never called: exec() hands its own run to the measurement

 private:
  void (*function_)(StateType&);
  AxisValues axes_;
};

using MakeFixture = std::function<std::unique_ptr<FixtureBase>(const AxisValues&)>;

// The backend a state type runs on: State on the CPU; cuda_short_form.h adds CudaState.
template <class StateType>
struct BackendOf;
template <>
struct BackendOf<State> {
  using type = CpuFixture;
};

template <class StateType>
MakeFixture make_for(void (*function)(StateType&)) {
  return [function](const AxisValues& axes) -> std::unique_ptr<FixtureBase> {
    return std::make_unique<FunctionFixture<typename BackendOf<StateType>::type, StateType>>(function, axes);
  };
}

}  // namespace detail

// A float64 reference computed element by element: reference_map(x, [](double v) { return 1.5 * v; }).
template <class T, class F>
std::vector<double> reference_map(Span<T> input, F f) {
  std::vector<double> out(input.size);
  for (std::size_t i = 0; i < input.size; ++i) out[i] = f(static_cast<double>(input[i]));
  return out;
}
template <class T, class F>
std::vector<double> reference_map(const Array<T>& input, F f) {
  return reference_map(input.span(), f);
}

// A short-form registration, chained like Google Benchmark's: ->pow2_axis("n", 10, 24, 2).
// Nothing reaches Google Benchmark until main() has read --gbx_axis (register_short_benchmarks).
class ShortBenchmark {
 public:
  // type_axis: the name of the type axis ("" for none); makers: one per type, or one.
  ShortBenchmark(std::string name, const std::string& type_axis,
                 std::vector<std::pair<std::string, detail::MakeFixture>> makers);

  ShortBenchmark* int_axis(const std::string& name, const std::vector<std::int64_t>& values);
  ShortBenchmark* pow2_axis(const std::string& name, int low_exponent, int high_exponent, int step = 1);
  ShortBenchmark* float_axis(const std::string& name, const std::vector<double>& values);
  ShortBenchmark* string_axis(const std::string& name, const std::vector<std::string>& values);
  ShortBenchmark* axis(Axis axis);
  // The named axes choose an implementation (a tile size), not the problem: Pareto compares their
  // values as variants of one problem.
  ShortBenchmark* variant_axes(const std::vector<std::string>& names);
  // The values the named numeric axis can run, inclusive: --gbx_axis refuses others before anything
  // runs (exit 2). A power-of-two axis counts elements: at least 0 unless declared otherwise.
  ShortBenchmark* axis_range(const std::string& name, double minimum,
                             double maximum = std::numeric_limits<double>::infinity());
  // Leaves out the points for which rejected(point) is true.
  ShortBenchmark* exclude(std::function<bool(const AxisValues&)> rejected);
  ShortBenchmark* unit(benchmark::TimeUnit unit);

  const std::string& name() const { return name_; }
  const std::vector<Axis>& axes() const { return axes_; }
  // The points of the product after exclusions, each with its fixture; registers them.
  void register_all(const std::vector<std::pair<std::string, std::string>>& overrides) const;

 private:
  std::string name_;
  std::vector<Axis> axes_;
  std::vector<std::pair<std::string, detail::MakeFixture>> makers_;
  std::vector<std::function<bool(const AxisValues&)>> excluded_;
  std::optional<benchmark::TimeUnit> unit_;
};

namespace detail {

// Adds a registration to those register_short_benchmarks() will make.
ShortBenchmark* add_short_benchmark(std::unique_ptr<ShortBenchmark> benchmark);

inline ShortBenchmark* short_bench(void (*function)(State&), const std::string& name) {
  return add_short_benchmark(std::make_unique<ShortBenchmark>(
      name, "", std::vector<std::pair<std::string, MakeFixture>>{{"", make_for(function)}}));
}

// Registers every short-form benchmark with Google Benchmark, with the --gbx_axis values given
// (NAME=VALUES each). Throws AxisError for a bad value or an axis no benchmark has. Once per process.
void register_short_benchmarks(const std::vector<std::string>& axis_flags);

}  // namespace detail

// The name of a type axis's value; specialise it for your own types (GBX_TYPE_NAME).
template <class T>
struct TypeName;
// Type is a template argument and text a return value: neither can be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define GBX_TYPE_NAME(Type, text)             \
  template <>                                 \
  struct gbx::TypeName<Type> {                \
    static const char* get() { return text; } \
  }
// NOLINTEND(bugprone-macro-parentheses)
template <>
struct TypeName<float> {
  static const char* get() { return "float"; }
};
template <>
struct TypeName<double> {
  static const char* get() { return "double"; }
};
template <>
struct TypeName<std::int32_t> {
  static const char* get() { return "int32"; }
};
template <>
struct TypeName<std::int64_t> {
  static const char* get() { return "int64"; }
};

namespace detail {

template <class T>
struct TypeTag {
  using type = T;
};

// A type axis named "T" over Types: pick(TypeTag<T>{}) gives the function instantiated for T.
template <class... Types, class Pick>
ShortBenchmark* bench_types(const std::string& name, Pick pick) {
  std::vector<std::pair<std::string, MakeFixture>> makers;
  (makers.emplace_back(TypeName<Types>::get(), make_for(pick(TypeTag<Types>{}))), ...);
  return add_short_benchmark(std::make_unique<ShortBenchmark>(name, "T", std::move(makers)));
}

}  // namespace detail

}  // namespace gbx

// function names a function (GBX_BENCH_TYPES: a template, instantiated by name): not parenthesisable.
// NOLINTBEGIN(bugprone-macro-parentheses)
// GBX_BENCH(function, "family/variant")->pow2_axis("n", 10, 24, 2);
#define GBX_BENCH(function, name)                                                      \
  [[maybe_unused]] static ::gbx::ShortBenchmark* GBX_CONCAT(gbx_short_, __COUNTER__) = \
      ::gbx::detail::short_bench(function, name)
// GBX_BENCH_TYPES(function_template, "family/variant", float, double): a type axis "T".
#define GBX_BENCH_TYPES(function, name, ...)                                           \
  [[maybe_unused]] static ::gbx::ShortBenchmark* GBX_CONCAT(gbx_short_, __COUNTER__) = \
      ::gbx::detail::bench_types<__VA_ARGS__>(name, [](auto tag) { return &function<typename decltype(tag)::type>; })
// NOLINTEND(bugprone-macro-parentheses)

#include "extensions/short_form.h"

#include <algorithm>

#include "extensions/fixture_run.h"
#include "extensions/reference_cache.h"

namespace gbx {

using detail::FixtureRun;

void State::fill_random(Span<float> values, float low, float high) {
  FixtureRun::fill_random(fixture_, values, low, high);
}

void State::fill_random(Span<double> values, double low, double high) {
  FixtureRun::fill_random(fixture_, values, low, high);
}

void State::declare_flops_per_run(double flops) { FixtureRun::declare_flops_per_run(fixture_, flops); }

void State::declare_bytes_per_run(double bytes) { FixtureRun::declare_bytes_per_run(fixture_, bytes); }

void State::declare_precision(std::string precision) { FixtureRun::declare_precision(fixture_, std::move(precision)); }

void State::declare_problem(std::string problem) { FixtureRun::declare_problem(fixture_, std::move(problem)); }

void State::declare_seed(std::uint64_t seed) { FixtureRun::declare_seed(fixture_, seed); }

std::uint64_t State::seed() const { return FixtureRun::seed(fixture_); }

const std::string& State::problem() const { return FixtureRun::state_of(fixture_).call.record.problem; }

void* State::zeroed_bytes(std::size_t bytes) { return FixtureRun::zeroed_host_bytes(fixture_, bytes); }

void State::adopt_array(std::unique_ptr<detail::RotatingArray> array) {
  FixtureRun::state_of(fixture_).call.rotating.push_back(std::move(array));
}

void State::declare_inout(void* data, std::size_t bytes, bool on_device) {
  if (executed_) throw std::logic_error("state.inout() must come before state.exec()");
  FixtureRun::declare_inout_bytes(fixture_, data, bytes, on_device);
}

bool State::checks_inout(const void* output) { return FixtureRun::checks_inout(fixture_, output); }

void State::declare_check(std::function<void()> poison, std::function<Accuracy()> compare, double tolerance,
                          std::size_t accumulated_terms) {
  if (executed_) throw std::logic_error("state.check() must come before state.exec()");
  detail::FixtureCall& call = FixtureRun::state_of(fixture_).call;
  call.poison_hook = std::move(poison);
  call.check_hook = std::move(compare);
  const double chosen = tolerance >= 0.0 ? tolerance : tolerance_for(call.record.precision, accumulated_terms);
  FixtureRun::declare_accuracy(fixture_, "float64 reference", chosen);
}

const std::vector<double>& State::reference(const std::function<std::vector<double>()>& compute) const {
  return cached_reference(problem() + "/seed=" + std::to_string(seed()), compute);
}

// Before the checked run: the output is poisoned unless it is in place, and the reference computed
// from the inputs as that run finds them (an in-place output holds its original values again).
void State::check(Span<float> output, const std::function<std::vector<double>()>& compute, double tolerance,
                  std::size_t accumulated_terms) {
  // The output as the arrays hold it when the check runs: copy 0, rotation over.
  declare_check(
      [this, output, compute] {
        if (!checks_inout(output.data)) poison(output);
        reference(compute);
      },
      [this, output, compute] { return compare_to_reference(output.data, reference(compute).data(), output.size); },
      tolerance, accumulated_terms);
}

void State::check(Span<double> output, const std::function<std::vector<double>()>& compute, double tolerance,
                  std::size_t accumulated_terms) {
  declare_check(
      [this, output, compute] {
        if (!checks_inout(output.data)) poison(output);
        reference(compute);
      },
      [this, output, compute] { return compare_to_reference(output.data, reference(compute).data(), output.size); },
      tolerance, accumulated_terms);
}

void State::exec(std::function<void()> run) {
  if (executed_) throw std::logic_error("state.exec() is called once per benchmark");
  if (!run) throw std::invalid_argument("state.exec() needs a run");
  executed_ = true;
  const std::function<void()> kept = std::move(run);
  FixtureRun::measure_after_setup(fixture_, google_benchmark_, kept);
  // Held by a worker (parked_setup.h): its later blocks measure here again, inputs as they are.
  while (FixtureRun::park_measured(fixture_)) {
    FixtureRun::measure_after_setup(fixture_, *FixtureRun::state_of(fixture_).call.google_benchmark, kept);
  }
}

void detail::set_up_function(FixtureBase& fixture, bool may_hold, std::function<void()> call) {
  auto checked = [&fixture, call = std::move(call)] {
    call();
    if (!FixtureRun::state_of(fixture).call.measured) {
      throw std::logic_error("the benchmark function returned without calling state.exec()");
    }
  };
  if (may_hold && FixtureRun::may_park(fixture)) {
    FixtureRun::park_setup(fixture, checked);
  } else {
    checked();
  }
}

namespace {

std::vector<std::unique_ptr<ShortBenchmark>>& registry() {
  static std::vector<std::unique_ptr<ShortBenchmark>> benchmarks;
  return benchmarks;
}

}  // namespace

ShortBenchmark::ShortBenchmark(std::string name, const std::string& type_axis_name,
                               std::vector<std::pair<std::string, detail::MakeFixture>> makers)
    : name_(std::move(name)), makers_(std::move(makers)) {
  if (!type_axis_name.empty()) {
    std::vector<std::string> types;
    types.reserve(makers_.size());
    for (const auto& [type, make] : makers_) types.push_back(type);
    axes_.push_back(type_axis(type_axis_name, types));
  }
}

ShortBenchmark* ShortBenchmark::axis(Axis axis) {
  const bool taken = std::any_of(axes_.begin(), axes_.end(), [&](const Axis& a) { return a.name == axis.name; });
  if (taken || axis.name.empty() || axis.name.find_first_of("/:= ,") != std::string::npos) {
    throw std::invalid_argument(name_ + ": axis name '" + axis.name + "' is empty, taken, or holds / : = , or space");
  }
  axes_.push_back(std::move(axis));
  return this;
}

ShortBenchmark* ShortBenchmark::int_axis(const std::string& name, const std::vector<std::int64_t>& values) {
  return axis(gbx::int_axis(name, values));
}

ShortBenchmark* ShortBenchmark::pow2_axis(const std::string& name, int low_exponent, int high_exponent, int step) {
  return axis(gbx::pow2_axis(name, low_exponent, high_exponent, step));
}

ShortBenchmark* ShortBenchmark::float_axis(const std::string& name, const std::vector<double>& values) {
  return axis(gbx::float_axis(name, values));
}

ShortBenchmark* ShortBenchmark::string_axis(const std::string& name, const std::vector<std::string>& values) {
  return axis(gbx::string_axis(name, values));
}

ShortBenchmark* ShortBenchmark::variant_axes(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    const auto found = std::find_if(axes_.begin(), axes_.end(), [&](const Axis& a) { return a.name == name; });
    if (found == axes_.end()) throw std::invalid_argument(name_ + ": variant_axes names no axis '" + name + "'");
    found->variant = true;
  }
  return this;
}

ShortBenchmark* ShortBenchmark::axis_range(const std::string& name, double minimum, double maximum) {
  const auto found = std::find_if(axes_.begin(), axes_.end(), [&](const Axis& a) { return a.name == name; });
  if (found == axes_.end()) throw std::invalid_argument(name_ + ": axis_range names no axis '" + name + "'");
  const bool numeric = found->kind != Axis::Kind::text && found->kind != Axis::Kind::type;
  if (!numeric || !(minimum <= maximum)) {
    throw std::invalid_argument(name_ + ": axis_range for '" + name + "' needs a numeric axis and minimum <= maximum");
  }
  found->minimum = minimum;
  found->maximum = maximum;
  for (const detail::AxisValue& v : found->values) {
    const double value = v.kind == detail::AxisValue::Kind::integer ? static_cast<double>(v.integer) : v.real;
    if (value < minimum || value > maximum) {
      throw std::invalid_argument(name_ + ": axis '" + name + "' declares " + v.text + ", outside its axis_range");
    }
  }
  return this;
}

ShortBenchmark* ShortBenchmark::exclude(std::function<bool(const AxisValues&)> rejected) {
  excluded_.push_back(std::move(rejected));
  return this;
}

ShortBenchmark* ShortBenchmark::unit(benchmark::TimeUnit unit) {
  unit_ = unit;
  return this;
}

void ShortBenchmark::register_all(const std::vector<std::pair<std::string, std::string>>& overrides) const {
  std::vector<Axis> axes = axes_;
  for (const auto& [name, values] : overrides) {
    for (Axis& a : axes) {
      if (a.name == name) detail::override_axis(a, values);
    }
  }
  const auto slash = name_.rfind('/');
  const std::string family = slash == std::string::npos ? name_ : name_.substr(0, slash);
  const std::string variant = slash == std::string::npos ? "main" : name_.substr(slash + 1);
  for (const AxisValues& point : detail::axis_product(axes, excluded_)) {
    const detail::MakeFixture* make = &makers_.front().second;
    for (const auto& [type, maker] : makers_) {
      for (const detail::AxisValue& v : point.all()) {
        if (v.text == type && !type.empty()) make = &maker;
      }
    }
    detail::FixtureIdentity identity;
    identity.family = family;
    identity.variant = variant;
    identity.axes = point.all();
    identity.short_form = true;
    RegisteredBenchmark* registered = detail::register_identified((*make)(point), std::move(identity));
    if (unit_) registered->Unit(*unit_);
  }
}

namespace detail {

ShortBenchmark* add_short_benchmark(std::unique_ptr<ShortBenchmark> benchmark) {
  registry().push_back(std::move(benchmark));
  return registry().back().get();
}

namespace {

// "n (scale/loop, ...), T (...)": which benchmarks have which axes, for a refusal that names none.
std::string axes_listing() {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_axis;
  for (const auto& b : registry()) {
    for (const Axis& a : b->axes()) {
      auto found = std::find_if(by_axis.begin(), by_axis.end(), [&](const auto& e) { return e.first == a.name; });
      if (found == by_axis.end()) found = by_axis.insert(by_axis.end(), {a.name, {}});
      found->second.push_back(b->name());
    }
  }
  std::string text;
  for (const auto& [axis, names] : by_axis) {
    std::string some;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i) some += (i == 0 ? "" : ", ") + names[i];
    if (names.size() > 3) some += " and " + std::to_string(names.size() - 3) + " more";
    text += text.empty() ? "" : "; ";
    text += axis;
    text += " (" + some + ")";
  }
  return text.empty() ? "no short-form benchmark declares an axis" : "the axes are " + text;
}

}  // namespace

void register_short_benchmarks(const std::vector<std::string>& axis_flags) {
  static bool registered = false;
  if (registered) return;
  registered = true;
  std::vector<std::pair<std::string, std::string>> overrides;
  for (const std::string& flag : axis_flags) {
    auto parsed = split_axis_flag(flag);
    const bool declared = std::any_of(registry().begin(), registry().end(), [&](const auto& b) {
      return std::any_of(b->axes().begin(), b->axes().end(), [&](const Axis& a) { return a.name == parsed.first; });
    });
    if (!declared) {
      throw AxisError("--gbx_axis=" + flag + ": no benchmark has an axis named '" + parsed.first + "' (" +
                      axes_listing() + "; class-form benchmarks have none)");
    }
    const bool repeated =
        std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) { return o.first == parsed.first; });
    if (repeated) throw AxisError("--gbx_axis: axis '" + parsed.first + "' is given more than once");
    overrides.push_back(std::move(parsed));
  }
  // Every value is checked, against every benchmark's range for its axis, before anything registers,
  // so that a bad one leaves no half-made selection and no benchmark runs.
  for (const auto& b : registry()) {
    std::vector<Axis> axes = b->axes();
    for (const auto& [name, values] : overrides) {
      for (Axis& a : axes) {
        if (a.name != name) continue;
        try {
          override_axis(a, values);
        } catch (const AxisError& e) {
          std::string message = "--gbx_axis=" + name;
          message += "=" + values;
          message += ": " + b->name();
          message += std::string(": ") + e.what();
          throw AxisError(message);
        }
      }
    }
  }
  for (const auto& b : registry()) b->register_all(overrides);
  set_axis_flags(axis_flags);
}

}  // namespace detail

}  // namespace gbx

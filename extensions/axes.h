#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/axis_value.h"

namespace gbx {

// A bad axis: a value that does not parse, or an axis no benchmark declares. what() names the axis.
class AxisError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One parameter axis of a short-form benchmark: its name, kind and values (nvbench's axes, the same
// kinds). A type axis is a string axis whose values pick the compiled instantiation.
struct Axis {
  enum class Kind { integer, power_of_two, real, text, type };
  std::string name;
  Kind kind = Kind::integer;
  std::vector<detail::AxisValue> values;
  bool variant = false;  // the axis chooses an implementation (a tile size), not the problem
  // The values the benchmark can run, inclusive (ShortBenchmark::axis_range): --gbx_axis refuses
  // any other before anything runs, where a benchmark would crash or fail on it.
  double minimum = -std::numeric_limits<double>::infinity();
  double maximum = std::numeric_limits<double>::infinity();
  // The value counts elements (a power-of-two axis): at least 0, and no more than this machine's
  // memory holds at one byte each, since no array of that many elements could be allocated.
  bool counts_elements = false;
};

Axis int_axis(const std::string& name, const std::vector<std::int64_t>& values);
// 2^low, 2^(low+step), ... up to 2^high.
Axis pow2_axis(const std::string& name, int low_exponent, int high_exponent, int step = 1);
Axis float_axis(const std::string& name, const std::vector<double>& values);
Axis string_axis(const std::string& name, const std::vector<std::string>& values);
Axis type_axis(const std::string& name, const std::vector<std::string>& type_names);

// The values of one point of the product, read by name. Throws AxisError for an axis not declared.
class AxisValues {
 public:
  AxisValues() = default;
  explicit AxisValues(std::vector<detail::AxisValue> values) : values_(std::move(values)) {}
  std::int64_t get_int(const std::string& name) const;
  double get_float(const std::string& name) const;  // an integer axis reads as a real too
  const std::string& get_string(const std::string& name) const;
  bool has(const std::string& name) const;
  const std::vector<detail::AxisValue>& all() const { return values_; }

 private:
  const detail::AxisValue& find(const std::string& name) const;
  std::vector<detail::AxisValue> values_;
};

namespace detail {

// The cartesian product in declared order (the last axis varies fastest), less the points that
// `excluded` rejects.
std::vector<AxisValues> axis_product(const std::vector<Axis>& axes,
                                     const std::vector<std::function<bool(const AxisValues&)>>& excluded);

// --gbx_axis=NAME=VALUES: "1,2,4", "2^10:2^24:2" (powers of two, the step on the exponent), "0:100:10"
// (a linear range), "0.5,1.5", "float,double". Splits off the name; throws AxisError naming the flag.
std::pair<std::string, std::string> split_axis_flag(const std::string& flag_value);
// Replaces axis's values with those `text` gives, in axis's kind; throws AxisError naming the axis.
// A type axis accepts only the types it was compiled for; a value outside the axis's range, or (an
// axis that counts elements) above memory_bytes, is refused too.
void override_axis(Axis& axis, const std::string& text, double memory_bytes);
void override_axis(Axis& axis, const std::string& text);  // memory_bytes: this machine's memory

// The --gbx_axis flags given (NAME=VALUES each), and the warning a benchmark that lacks one of their
// axes prints once per process, on stderr: it runs as registered (docs/flags.md says why that is
// not a refusal). benchmark names it ("reduce/naive"); class_form: it has no axes at all.
void set_axis_flags(std::vector<std::string> flags);
void warn_missing_axes(const std::string& benchmark, const std::vector<AxisValue>& axes, bool class_form);

// The value as the benchmark's name shows it: integers in full, reals in the shortest form that
// reads back the same.
std::string axis_value_text(double value);

}  // namespace detail
}  // namespace gbx

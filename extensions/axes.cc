#include "extensions/axes.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <set>

#include "extensions/host_memory.h"

namespace gbx {

namespace {

detail::AxisValue integer_value(const std::string& name, std::int64_t v) {
  detail::AxisValue a;
  a.name = name;
  a.kind = detail::AxisValue::Kind::integer;
  a.integer = v;
  a.real = static_cast<double>(v);
  a.text = std::to_string(v);
  return a;
}

detail::AxisValue real_value(const std::string& name, double v) {
  detail::AxisValue a;
  a.name = name;
  a.kind = detail::AxisValue::Kind::real;
  a.real = v;
  a.text = detail::axis_value_text(v);
  return a;
}

detail::AxisValue text_value(const std::string& name, const std::string& v) {
  detail::AxisValue a;
  a.name = name;
  a.kind = detail::AxisValue::Kind::text;
  a.text = v;
  return a;
}

[[noreturn]] void bad_value(const std::string& axis, const std::string& text, const std::string& expected) {
  throw AxisError("invalid value '" + text + "' for axis '" + axis + "': expected " + expected);
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

bool parse_integer(const std::string& text, std::int64_t& out) {
  if (text.empty() || text.find_first_not_of("0123456789-+") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}

bool parse_real(const std::string& text, double& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}

// "2^k" to k, or false.
bool parse_power(const std::string& text, std::int64_t& exponent) {
  return text.rfind("2^", 0) == 0 && parse_integer(text.substr(2), exponent) && exponent >= 0 && exponent <= 62;
}

constexpr std::size_t kMostValues = 100000;

std::vector<detail::AxisValue> integer_values(const std::string& axis, const std::string& text) {
  const std::string expected = "integers (1,2,4), a power-of-two range (2^10:2^24:2) or a range (0:100:10)";
  std::vector<detail::AxisValue> values;
  const auto range = split(text, ':');
  if (range.size() == 2 || range.size() == 3) {
    std::int64_t low = 0, high = 0, step = 1;
    const bool powers = parse_power(range[0], low) && parse_power(range[1], high);
    if (!powers && !(parse_integer(range[0], low) && parse_integer(range[1], high))) bad_value(axis, text, expected);
    if (range.size() == 3 && !parse_integer(range[2], step)) bad_value(axis, text, expected);
    if (step <= 0 || high < low) bad_value(axis, text, expected + ", low <= high and a positive step");
    if ((high - low) / step >= static_cast<std::int64_t>(kMostValues)) bad_value(axis, text, "fewer values");
    for (std::int64_t v = low; v <= high; v += step) {
      values.push_back(integer_value(axis, powers ? std::int64_t{1} << v : v));
    }
    return values;
  }
  if (range.size() != 1) bad_value(axis, text, expected);
  for (const std::string& part : split(text, ',')) {
    std::int64_t v = 0, exponent = 0;
    if (parse_power(part, exponent)) {
      v = std::int64_t{1} << exponent;
    } else if (!parse_integer(part, v)) {
      bad_value(axis, text, expected);
    }
    values.push_back(integer_value(axis, v));
  }
  return values;
}

std::vector<detail::AxisValue> real_values(const std::string& axis, const std::string& text) {
  const std::string expected = "numbers (0.5,1.5) or a range (0:1:0.25)";
  std::vector<detail::AxisValue> values;
  const auto range = split(text, ':');
  if (range.size() == 3) {
    double low = 0, high = 0, step = 0;
    if (!parse_real(range[0], low) || !parse_real(range[1], high) || !parse_real(range[2], step) || step <= 0 ||
        high < low || (high - low) / step >= static_cast<double>(kMostValues)) {
      bad_value(axis, text, expected);
    }
    // Counted, not accumulated, so that 0:1:0.1 ends on 1 and not on 0.9999999999999999.
    const auto count = static_cast<std::int64_t>(std::floor((high - low) / step * (1.0 + 1e-12)));
    for (std::int64_t i = 0; i <= count; ++i) values.push_back(real_value(axis, low + static_cast<double>(i) * step));
    return values;
  }
  if (range.size() != 1) bad_value(axis, text, expected);
  for (const std::string& part : split(text, ',')) {
    double v = 0;
    if (!parse_real(part, v)) bad_value(axis, text, expected);
    values.push_back(real_value(axis, v));
  }
  return values;
}

std::string gibibytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GiB", bytes / 1073741824.0);
  return text;
}

// Refuses a value outside the axis's range: a benchmark would crash or fail on it after others ran.
void check_range(const Axis& axis, double memory_bytes) {
  for (const detail::AxisValue& v : axis.values) {
    if (v.kind == detail::AxisValue::Kind::text) continue;
    const double value = v.kind == detail::AxisValue::Kind::integer ? static_cast<double>(v.integer) : v.real;
    const std::string counts = axis.counts_elements ? " (it counts elements)" : "";
    const std::string prefix = "value " + v.text + " for axis '" + axis.name + "' is ";
    if (value < axis.minimum) {
      std::string message = prefix;
      message += "below its minimum " + detail::axis_value_text(axis.minimum);
      message += counts;
      throw AxisError(message);
    }
    if (value > axis.maximum) throw AxisError(prefix + "above its maximum " + detail::axis_value_text(axis.maximum));
    if (axis.counts_elements && value > memory_bytes) {
      throw AxisError(prefix + "too large to allocate: it counts elements, and " + v.text +
                      " elements need more than this machine's memory (" + gibibytes(memory_bytes) + ")");
    }
  }
}

struct GivenAxes {
  std::mutex mutex;
  std::vector<std::string> flags;
  std::set<std::string> warned;  // benchmarks warned about, once each per process
};

GivenAxes& given_axes() {
  static GivenAxes given;
  return given;
}

}  // namespace

std::string detail::axis_value_text(double value) {
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

Axis int_axis(const std::string& name, const std::vector<std::int64_t>& values) {
  Axis axis{name, Axis::Kind::integer, {}, false};
  for (auto v : values) axis.values.push_back(integer_value(name, v));
  return axis;
}

Axis pow2_axis(const std::string& name, int low_exponent, int high_exponent, int step) {
  if (low_exponent < 0 || high_exponent > 62 || high_exponent < low_exponent || step <= 0) {
    throw std::invalid_argument("pow2_axis '" + name + "': expected 0 <= low <= high <= 62 and step > 0");
  }
  Axis axis{name, Axis::Kind::power_of_two, {}, false};
  axis.minimum = 0.0;  // a size: --gbx_axis=n=0 stays possible, a negative one is refused
  axis.counts_elements = true;
  for (int e = low_exponent; e <= high_exponent; e += step)
    axis.values.push_back(integer_value(name, std::int64_t{1} << e));
  return axis;
}

Axis float_axis(const std::string& name, const std::vector<double>& values) {
  Axis axis{name, Axis::Kind::real, {}, false};
  for (auto v : values) {
    if (!std::isfinite(v)) throw std::invalid_argument("float_axis '" + name + "': values must be finite");
    axis.values.push_back(real_value(name, v));
  }
  return axis;
}

Axis string_axis(const std::string& name, const std::vector<std::string>& values) {
  Axis axis{name, Axis::Kind::text, {}, false};
  for (const auto& v : values) axis.values.push_back(text_value(name, v));
  return axis;
}

Axis type_axis(const std::string& name, const std::vector<std::string>& type_names) {
  Axis axis = string_axis(name, type_names);
  axis.kind = Axis::Kind::type;
  return axis;
}

const detail::AxisValue& AxisValues::find(const std::string& name) const {
  for (const detail::AxisValue& v : values_) {
    if (v.name == name) return v;
  }
  throw AxisError("no axis named '" + name + "' is declared for this benchmark");
}

bool AxisValues::has(const std::string& name) const {
  return std::any_of(values_.begin(), values_.end(), [&](const detail::AxisValue& v) { return v.name == name; });
}

std::int64_t AxisValues::get_int(const std::string& name) const {
  const detail::AxisValue& v = find(name);
  if (v.kind != detail::AxisValue::Kind::integer) throw AxisError("axis '" + name + "' is not an integer axis");
  return v.integer;
}

double AxisValues::get_float(const std::string& name) const {
  const detail::AxisValue& v = find(name);
  if (v.kind == detail::AxisValue::Kind::text) throw AxisError("axis '" + name + "' is not a numeric axis");
  return v.real;
}

const std::string& AxisValues::get_string(const std::string& name) const { return find(name).text; }

std::vector<AxisValues> detail::axis_product(const std::vector<Axis>& axes,
                                             const std::vector<std::function<bool(const AxisValues&)>>& excluded) {
  std::vector<std::vector<detail::AxisValue>> points{{}};
  for (const Axis& axis : axes) {
    std::vector<std::vector<detail::AxisValue>> next;
    for (const auto& point : points) {
      for (detail::AxisValue value : axis.values) {
        value.variant = axis.variant;
        next.push_back(point);
        next.back().push_back(std::move(value));
      }
    }
    points = std::move(next);
  }
  std::vector<AxisValues> kept;
  for (auto& point : points) {
    AxisValues values(std::move(point));
    if (std::none_of(excluded.begin(), excluded.end(), [&](const auto& reject) { return reject(values); })) {
      kept.push_back(std::move(values));
    }
  }
  return kept;
}

std::pair<std::string, std::string> detail::split_axis_flag(const std::string& flag_value) {
  const auto equals = flag_value.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == flag_value.size()) {
    throw AxisError("invalid value '" + flag_value + "' for --gbx_axis: expected NAME=VALUES, e.g. n=2^10:2^24:2");
  }
  return {flag_value.substr(0, equals), flag_value.substr(equals + 1)};
}

void detail::override_axis(Axis& axis, const std::string& text) {
  override_axis(axis, text, static_cast<double>(physical_memory_bytes()));
}

void detail::override_axis(Axis& axis, const std::string& text, double memory_bytes) {
  switch (axis.kind) {
    case Axis::Kind::integer:
    case Axis::Kind::power_of_two:
      axis.values = integer_values(axis.name, text);
      check_range(axis, memory_bytes);
      return;
    case Axis::Kind::real:
      axis.values = real_values(axis.name, text);
      check_range(axis, memory_bytes);
      return;
    case Axis::Kind::text:
      axis.values.clear();
      for (const std::string& part : split(text, ',')) {
        if (part.empty()) bad_value(axis.name, text, "comma-separated strings, none empty");
        axis.values.push_back(text_value(axis.name, part));
      }
      return;
    case Axis::Kind::type: {
      std::vector<detail::AxisValue> chosen;
      std::string compiled;
      for (const detail::AxisValue& v : axis.values) compiled += (compiled.empty() ? "" : ", ") + v.text;
      for (const std::string& part : split(text, ',')) {
        const auto found = std::find_if(axis.values.begin(), axis.values.end(),
                                        [&](const detail::AxisValue& v) { return v.text == part; });
        if (found == axis.values.end()) bad_value(axis.name, text, "types it was compiled for: " + compiled);
        chosen.push_back(*found);
      }
      axis.values = std::move(chosen);
      return;
    }
  }
}

void detail::set_axis_flags(std::vector<std::string> flags) {
  GivenAxes& given = given_axes();
  const std::lock_guard<std::mutex> lock(given.mutex);
  given.flags = std::move(flags);
  given.warned.clear();
}

void detail::warn_missing_axes(const std::string& benchmark, const std::vector<AxisValue>& axes, bool class_form) {
  GivenAxes& given = given_axes();
  const std::lock_guard<std::mutex> lock(given.mutex);
  for (const std::string& flag : given.flags) {
    const std::string name = flag.substr(0, flag.find('='));
    const bool has = std::any_of(axes.begin(), axes.end(), [&](const AxisValue& a) { return a.name == name; });
    if (has || !given.warned.insert(benchmark).second) continue;
    std::string own;
    for (const AxisValue& a : axes) own += (own.empty() ? "" : ", ") + a.name;
    std::cerr << "gbx: --gbx_axis=" << flag << ": " << benchmark
              << (class_form
                      ? " is a class-form benchmark, which has no axes (its sizes are its registration's arguments)"
                      : " has no axis '" + name + "' (its axes: " + (own.empty() ? "none" : own) + ")")
              << "; it runs as registered\n";
  }
}

}  // namespace gbx

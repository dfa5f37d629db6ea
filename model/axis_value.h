#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gbx::detail {

// One parameter axis's value for one benchmark (extensions/axes.h declares the axes). The record keeps
// integers and reals as JSON numbers and the rest (strings, type names) as strings, under gbx.axes.
struct AxisValue {
  enum class Kind { integer, real, text };
  std::string name;
  Kind kind = Kind::integer;
  std::int64_t integer = 0;
  double real = 0.0;
  std::string text;      // the value of a string or type axis; for numbers, how the name shows them
  bool variant = false;  // an implementation choice (a tile size), not part of the problem
};

// "n=1024/T=float" over the axes whose `variant` equals `of_variant`, in their declared order.
inline std::string axes_text(const std::vector<AxisValue>& axes, bool of_variant) {
  std::string text;
  for (const AxisValue& a : axes) {
    if (a.variant != of_variant) continue;
    text += (text.empty() ? "" : "/") + a.name + "=" + a.text;
  }
  return text;
}

}  // namespace gbx::detail

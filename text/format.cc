#include "text/format.h"

#include <cmath>
#include <cstdio>
#include <iterator>

namespace gbx {

TimeUnit time_unit_for(double seconds) {
  const double magnitude = std::fabs(seconds);
  if (magnitude < 1e-6) return {"ns", 1e9};
  if (magnitude < 1e-3) return {"us", 1e6};
  if (magnitude < 1.0) return {"ms", 1e3};
  return {"s", 1.0};
}

std::string format_three_digits_fixed(double value) {
  if (!std::isfinite(value)) return "-";
  char text[32];
  const double magnitude = std::fabs(value);
  const int decimals = magnitude >= 100 ? 0 : (magnitude >= 10 ? 1 : 2);
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds)) return "-";
  const TimeUnit unit = time_unit_for(seconds);
  return format_three_digits_fixed(seconds * unit.scale) + " " + unit.name;
}

std::string format_bytes(double bytes) {
  if (!std::isfinite(bytes)) return "-";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  double value = bytes;
  while (std::fabs(value) >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  if (unit == 0) {
    char text[40];
    std::snprintf(text, sizeof text, "%.0f B", value);
    return text;
  }
  return format_three_digits_fixed(value) + " " + units[unit];
}

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * fraction);
  return text;
}

std::string format_signed_percent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", 100.0 * fraction);
  return text;
}

std::string format_three_digits_compact(double value) {
  if (!std::isfinite(value)) return "-";
  char text[40];
  std::snprintf(text, sizeof text, std::fabs(value) >= 1000 ? "%.0f" : "%.3g", value);
  return text;
}

std::string format_scientific(double value) {
  if (!std::isfinite(value)) return "-";
  char text[40];
  std::snprintf(text, sizeof text, "%.2e", value);
  return text;
}

std::string format_fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  char text[40];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace gbx

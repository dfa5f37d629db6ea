#pragma once

#include <cstddef>
#include <string>

// Readable numbers for the console, the reports and their sentences. Each formatter gives "-" for a
// value that is not finite.

namespace gbx {

// The duration unit for values around `seconds`: {"us", 1e6} below a millisecond, and so on.
struct TimeUnit {
  const char* name;
  double scale;
};
TimeUnit time_unit_for(double seconds);

// Three significant digits, trailing zeros kept so that a column's decimals line up: "812", "2.31",
// "2.00", "40.2". For tables.
std::string format_three_digits_fixed(double value);
// Seconds in a readable unit with three significant digits: "812 ns", "2.31 us", "40.2 ms".
std::string format_duration(double seconds);
// Binary units: "512 B", "16.0 KiB", "2.00 MiB".
std::string format_bytes(double bytes);
// A fraction as a percentage with one decimal: 0.123 -> "12.3%"; signed: "+12.3%", "-4.0%".
std::string format_percent(double fraction);
std::string format_signed_percent(double fraction);
// Three significant digits with trailing zeros dropped, or the integer from 1000 up: "155", "3.38",
// "2", "1234". For numbers inside sentences.
std::string format_three_digits_compact(double value);
// "5.34e-07".
std::string format_scientific(double value);
std::string format_fixed(double value, int decimals);

// Right-aligned in width; text as wide or wider is returned as it is.
std::string pad_left(const std::string& text, std::size_t width);

}  // namespace gbx

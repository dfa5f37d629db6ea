#include "record/float_arrays.h"

#include <charconv>
#include <system_error>
#include <utility>

namespace gbx {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::size_t skip_space(const char* p, std::size_t i, std::size_t n) {
  while (i < n && is_space(p[i])) ++i;
  return i;
}

std::size_t skip_digits(const char* p, std::size_t i, std::size_t n) {
  while (i < n && is_digit(p[i])) ++i;
  return i;
}

// The end of a JSON number at p[i] that has a fraction or an exponent, or 0 when none starts there.
std::size_t float_end(const char* p, std::size_t i, std::size_t n) {
  if (i < n && p[i] == '-') ++i;
  if (i >= n || !is_digit(p[i])) return 0;
  i = p[i] == '0' ? i + 1 : skip_digits(p, i, n);  // no leading zero
  bool fractional = false;
  if (i < n && p[i] == '.') {
    if (i + 1 >= n || !is_digit(p[i + 1])) return 0;
    i = skip_digits(p, i + 1, n);
    fractional = true;
  }
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    ++i;
    if (i < n && (p[i] == '+' || p[i] == '-')) ++i;
    if (i >= n || !is_digit(p[i])) return 0;
    i = skip_digits(p, i, n);
    fractional = true;
  }
  return fractional ? i : 0;
}

// The values of the array whose '[' is p[open], and the index past its ']'; 0 when it is not an
// array of floats only.
std::size_t read_floats(const char* p, std::size_t open, std::size_t n, std::vector<double>& values) {
  values.clear();
  std::size_t i = skip_space(p, open + 1, n);
  for (;;) {
    const std::size_t end = float_end(p, i, n);
    if (end == 0) return 0;
    double value = 0.0;
    const auto [stop, error] = std::from_chars(p + i, p + end, value);
    if (error != std::errc() || stop != p + end) return 0;  // out of range: nlohmann words that fault
    values.push_back(value);
    i = skip_space(p, end, n);
    if (i < n && p[i] == ']') return i + 1;
    if (i >= n || p[i] != ',') return 0;
    i = skip_space(p, i + 1, n);
  }
}

}  // namespace

FloatArrays take_float_arrays(const std::string& text, std::size_t min_size) {
  const char* p = text.data();
  const std::size_t n = text.size();
  FloatArrays result;
  std::size_t copied = 0;   // text before this is in result.text
  std::size_t ordinal = 0;  // of the next '['
  std::vector<double> values;
  for (std::size_t i = 0; i < n;) {
    if (p[i] == '"') {
      for (++i; i < n && p[i] != '"'; ++i) {
        if (p[i] == '\\') ++i;
      }
      ++i;  // past the closing quote, or beyond the end of an unterminated string
      continue;
    }
    if (p[i] != '[') {
      ++i;
      continue;
    }
    const std::size_t end = read_floats(p, i, n, values);
    if (end == 0 || values.size() < min_size) {
      ++ordinal;
      ++i;
      continue;
    }
    if (result.arrays.empty()) result.text.reserve(n);
    result.text.append(p + copied, i - copied).append("[]");
    result.arrays.emplace_back(ordinal++, std::move(values));
    values = {};
    copied = i = end;
  }
  if (result.arrays.empty()) return result;  // text stays empty: the input itself is the text
  result.text.append(p + copied, n - copied);
  return result;
}

}  // namespace gbx

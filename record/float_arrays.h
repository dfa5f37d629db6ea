#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

// A record's sample arrays are most of its text, and nlohmann's lexer is at its slowest on them
// (a character at a time, then strtod). The strict parser (record/json_parse.h) takes them out
// first: std::from_chars converts them, rounding as correctly as strtod does, and nlohmann parses
// the rest.

namespace gbx {

struct FloatArrays {
  std::string text;  // the input with each array taken out left as "[]"; empty when none was
  // Each array taken out: the ordinal of its '[' among the text's arrays (0-based, in text order,
  // which is the order a SAX parser starts them in), and its values.
  std::vector<std::pair<std::size_t, std::vector<double>>> arrays;
};

// The arrays of JSON text holding at least min_size elements, each a JSON number with a fraction or
// an exponent (never an integer, which JSON keeps as one) that std::from_chars converts within a
// double's range, separated by JSON whitespace and commas. Any other array, and everything within
// strings, is left as it is; so is all text after an unterminated string.
FloatArrays take_float_arrays(const std::string& text, std::size_t min_size);

}  // namespace gbx

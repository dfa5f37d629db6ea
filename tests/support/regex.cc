#include "tests/support/regex.h"

#include <regex>

namespace gbx_test {

bool regex_match(const std::string& text, const std::string& pattern) {
  return std::regex_match(text, std::regex(pattern));
}

bool regex_search(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

}  // namespace gbx_test

#pragma once

#include <string>

// std::regex for the tests, behind a function: GCC 12 warns falsely (-Wmaybe-uninitialized) inside
// <regex> under -fsanitize=address, so <regex> is instantiated in tests/support/regex.cc alone, the one
// file built with that warning off in sanitizer builds (tests/CMakeLists.txt). ECMAScript syntax.
namespace gbx_test {

// Whether the whole text matches pattern.
bool regex_match(const std::string& text, const std::string& pattern);

// Whether some part of text matches pattern.
bool regex_search(const std::string& text, const std::string& pattern);

}  // namespace gbx_test

#pragma once

#include <string>

namespace gbx::tools {

// Whether output to a file descriptor may be coloured: only a terminal's, and never with NO_COLOR
// set to anything non-empty (no-color.org) or TERM=dumb.
bool colour_wanted(int fd);

// The same decision from its inputs (no_color and term may be null: unset).
bool colour_wanted(bool is_terminal, const char* no_color, const char* term);

// text in an ANSI SGR colour ("31" red, "32" green), reset after; text itself when !colour.
std::string coloured(const std::string& text, const char* sgr, bool colour);

}  // namespace gbx::tools

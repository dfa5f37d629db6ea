#include "cli/terminal_colour.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace gbx::tools {

bool colour_wanted(bool is_terminal, const char* no_color, const char* term) {
  if (no_color != nullptr && *no_color != '\0') return false;
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return is_terminal;
}

bool colour_wanted(int fd) { return colour_wanted(::isatty(fd) != 0, std::getenv("NO_COLOR"), std::getenv("TERM")); }

std::string coloured(const std::string& text, const char* sgr, bool colour) {
  return colour ? std::string("\033[") + sgr + "m" + text + "\033[0m" : text;
}

}  // namespace gbx::tools

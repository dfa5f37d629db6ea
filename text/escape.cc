#include "text/escape.h"

#include <cctype>
#include <cstdio>

namespace gbx {

namespace {

std::string hex_escape(const char* prefix, unsigned value, int digits) {
  char text[16];
  std::snprintf(text, sizeof text, "%s%0*x", prefix, digits, value);
  return text;
}

// The length of the well-formed UTF-8 sequence at text[at], or 0; its code point in code_point.
std::size_t utf8_sequence(const std::string& text, std::size_t at, unsigned& code_point) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned lead = byte(at);
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  }
  std::size_t length = 0;
  unsigned minimum = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, code_point = lead & 0x1F, minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, code_point = lead & 0x0F, minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, code_point = lead & 0x07, minimum = 0x10000;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(at + i) & 0x3F);
  }
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (code_point < minimum || code_point > 0x10FFFF || surrogate) return 0;
  return length;
}

// Code points that act on a terminal or on the order text is shown in, rather than print.
bool is_control(unsigned code_point) {
  if (code_point < 0x20 || code_point == 0x7F) return true;
  if (code_point >= 0x80 && code_point <= 0x9F) return true;                    // C1, including CSI and OSC
  if (code_point >= 0x202A && code_point <= 0x202E) return true;                // bidi embeddings, overrides
  if (code_point >= 0x2066 && code_point <= 0x2069) return true;                // bidi isolates
  return code_point == 0x200E || code_point == 0x200F || code_point == 0x061C;  // bidi marks
}

// Calls visible(piece) for each printable character and escaped(escape) for each control or bad byte.
template <typename Visible>
std::string map_characters(const std::string& text, Visible visible) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    unsigned code_point = 0;
    const std::size_t length = utf8_sequence(text, at, code_point);
    if (length == 0) {
      out += hex_escape("\\x", static_cast<unsigned char>(text[at]), 2);
      ++at;
      continue;
    }
    if (is_control(code_point)) {
      if (code_point == '\r') {
        out += "\\r";
      } else if (code_point == '\n') {
        out += "\\n";
      } else if (code_point == '\t') {
        out += "\\t";
      } else {
        out += code_point < 0x100 ? hex_escape("\\x", code_point, 2) : hex_escape("\\u", code_point, 4);
      }
    } else {
      visible(out, text, at, length);
    }
    at += length;
  }
  return out;
}

void as_is(std::string& out, const std::string& text, std::size_t at, std::size_t length) {
  out.append(text, at, length);
}

}  // namespace

std::string terminal_text(const std::string& text) { return map_characters(text, as_is); }

std::string markdown_text(const std::string& text) {
  std::string one_line = text;
  for (char& c : one_line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return map_characters(one_line, [](std::string& out, const std::string& all, std::size_t at, std::size_t length) {
    const char c = all[at];
    if (length > 1) {
      out.append(all, at, length);
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else if (std::string("\\`*_[]!|~").find(c) != std::string::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  });
}

std::string markdown_cell(const std::string& text) { return text.empty() ? "-" : markdown_text(text); }

std::string markdown_code(const std::string& text) {
  std::string plain = text;
  for (char& c : plain) {
    if (c == '`') c = '\'';
    if (c == '\n' || c == '\r') c = ' ';
  }
  return "`" + terminal_text(plain) + "`";
}

std::string html_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void append_script_text(std::string& out, const std::string& text, ScriptContent content) {
  static const char kClose[] = "</script";
  static const char kComment[] = "<!--";
  out.reserve(out.size() + text.size());
  std::size_t copied = 0;
  for (std::size_t at = text.find('<'); at != std::string::npos; at = text.find('<', at + 1)) {
    out.append(text, copied, at - copied);
    copied = at + 1;
    if (content == ScriptContent::json) {
      out += "\\u003c";
      continue;
    }
    bool close = at + sizeof kClose - 1 <= text.size();
    for (std::size_t k = 1; close && k < sizeof kClose - 1; ++k) {
      close = std::tolower(static_cast<unsigned char>(text[at + k])) == kClose[k];
    }
    if (close) {
      out += "<\\/";
      copied = at + 2;  // the name follows as it was
    } else if (text.compare(at, sizeof kComment - 1, kComment) == 0) {
      out += "<\\u0021";
      copied = at + 2;  // "--" follows
    } else {
      out += '<';
    }
  }
  out.append(text, copied, std::string::npos);
}

std::string script_text(const std::string& text, ScriptContent content) {
  std::string out;
  append_script_text(out, text, content);
  return out;
}

}  // namespace gbx

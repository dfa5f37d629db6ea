#include "record/utf8.h"

#include <utility>

namespace gbx {

namespace {

// The length of the well-formed UTF-8 sequence at text[at] (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF), or 0.
std::size_t sequence_length(const std::string& text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  }
  return length;
}

// "~" and "/" escaped as RFC 6901 wants them in a JSON pointer.
std::string pointer_token(const std::string& key) {
  std::string token;
  for (const char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return token;
}

void replace_in(nlohmann::json& value, const std::string& where, std::vector<std::string>& changed) {
  bool replaced = false;
  if (value.is_string()) {
    std::string fixed = valid_utf8(value.get_ref<const std::string&>(), replaced);
    if (replaced) {
      value = std::move(fixed);
      changed.push_back(where);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) replace_in(value[i], where + "/" + std::to_string(i), changed);
  } else if (value.is_object()) {
    std::vector<std::pair<std::string, std::string>> renamed;  // bad key -> fixed key
    for (auto& [key, item] : value.items()) {
      std::string fixed = valid_utf8(key, replaced);
      if (replaced) renamed.emplace_back(key, std::move(fixed));
    }
    for (auto& [bad, fixed] : renamed) {
      nlohmann::json moved = std::move(value[bad]);
      value.erase(bad);
      value[fixed] = std::move(moved);
      changed.push_back(where + "/" + pointer_token(fixed));
    }
    for (auto& [key, item] : value.items()) replace_in(item, where + "/" + pointer_token(key), changed);
  }
}

}  // namespace

std::string valid_utf8(const std::string& text, bool& replaced) {
  replaced = false;
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = sequence_length(text, at);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      replaced = true;
      ++at;
    } else {
      out.append(text, at, length);
      at += length;
    }
  }
  return out;
}

std::vector<std::string> replace_invalid_utf8(nlohmann::json& value) {
  std::vector<std::string> changed;
  replace_in(value, "", changed);
  return changed;
}

}  // namespace gbx

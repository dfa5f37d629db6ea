#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gbx {

// text with every byte that is not part of well-formed UTF-8 replaced by U+FFFD; replaced says
// whether any was.
std::string valid_utf8(const std::string& text, bool& replaced);

// Makes every string and key of value valid UTF-8 (U+FFFD for each bad byte), so that it can be
// written as JSON, and returns the JSON pointers of what was changed. A run's argv or environment
// may hold any bytes; the measurements must not be lost to them.
std::vector<std::string> replace_invalid_utf8(nlohmann::json& value);

}  // namespace gbx

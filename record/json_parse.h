#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gbx {

// Why a text or a file is not a JSON document gbx will read; what() names the fault (not the file).
class JsonFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Deeper than any record (about 8 levels): nlohmann's copy, comparison and dump recurse, so a
// 60,000-deep file must be refused at the door rather than overflow the stack later.
inline constexpr std::size_t kMaxJsonDepth = 256;

// Parses text as one JSON document, refusing what the plain parser accepts or aborts on: nesting
// beyond kMaxJsonDepth, a key repeated within an object (parsers disagree on which copy wins, so a
// seal over one reading says nothing of the other), numbers beyond double's range (1e999), and
// NaN or Infinity. Throws JsonFault; never recurses on the input's depth.
nlohmann::json parse_json_strictly(const std::string& text);

// The bytes of a file to parse; "-" is standard input. Throws JsonFault naming what is wrong:
// missing or unreadable, a directory, or empty.
std::string read_json_file(const std::string& path);

}  // namespace gbx

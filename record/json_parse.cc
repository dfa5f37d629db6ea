#include "record/json_parse.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>
#include <vector>

#include "record/float_arrays.h"

namespace gbx {

namespace {

// The lexer stops at the first character no JSON literal starts with: the token so far is a start of
// NaN, Infinity, nan or inf, signed or not.
bool looks_non_finite(const std::string& read) {
  const std::size_t start = read.find_last_of(" \t\r\n:,[{");
  const std::string token = start == std::string::npos ? read : read.substr(start + 1);
  const std::string unsigned_token = !token.empty() && (token[0] == '-' || token[0] == '+') ? token.substr(1) : token;
  if (unsigned_token.empty()) return false;
  for (const char* word : {"NaN", "Infinity", "nan", "inf"}) {
    if (std::string(word).compare(0, unsigned_token.size(), unsigned_token) == 0) return true;
  }
  return false;
}

// Builds the document as nlohmann's own DOM parser does, with the depth and duplicate-key checks.
class StrictBuilder {
 public:
  using json = nlohmann::json;

  bool null() { return put(json(nullptr)); }
  bool boolean(bool value) { return put(json(value)); }
  bool number_integer(json::number_integer_t value) { return put(json(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return put(json(value)); }
  bool number_float(json::number_float_t value, const json::string_t&) { return put(json(value)); }
  bool string(json::string_t& value) { return put(json(std::move(value))); }
  bool binary(json::binary_t&) { return refuse("binary values are not JSON text"); }

  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) {
    const std::size_t ordinal = arrays_started_++;
    if (!open(json::array())) return false;
    if (taken_ != nullptr && next_taken_ < taken_->size() && (*taken_)[next_taken_].first == ordinal) {
      const std::vector<double>& values = (*taken_)[next_taken_++].second;
      json::array_t& array = stack_.back()->get_ref<json::array_t&>();
      array.reserve(values.size());
      for (const double value : values) array.emplace_back(value);
    }
    return true;
  }

  // The arrays take_float_arrays took out of the text being parsed, put back as they are started.
  void put_back(const std::vector<std::pair<std::size_t, std::vector<double>>>* taken) { taken_ = taken; }
  bool all_put_back() const { return taken_ == nullptr || next_taken_ == taken_->size(); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& name) {
    json& object = *stack_.back();
    if (object.contains(name)) return refuse("the key \"" + name + "\" appears twice in one object");
    pending_key_ = &object[name];
    return true;
  }

  bool parse_error(std::size_t, const std::string& last_token, const nlohmann::detail::exception& error) {
    if (fault_.empty()) fault_ = error.what();
    number_overflow_ = error.id == 406;
    non_finite_ = looks_non_finite(last_token);
    return false;
  }

  json result;
  std::string fault_;
  bool number_overflow_ = false;
  bool non_finite_ = false;

 private:
  bool refuse(const std::string& why) {
    fault_ = why;
    return false;
  }

  json* place(json&& value) {
    if (stack_.empty()) {
      result = std::move(value);
      return &result;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    *pending_key_ = std::move(value);
    return pending_key_;
  }

  bool put(json&& value) {
    place(std::move(value));
    return true;
  }

  bool open(json&& container) {
    if (stack_.size() >= kMaxJsonDepth) {
      return refuse("nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
    stack_.push_back(place(std::move(container)));
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  std::vector<json*> stack_;
  json* pending_key_ = nullptr;
  const std::vector<std::pair<std::size_t, std::vector<double>>>* taken_ = nullptr;
  std::size_t next_taken_ = 0;
  std::size_t arrays_started_ = 0;
};

}  // namespace

nlohmann::json parse_json_strictly(const std::string& text) {
  // Long float arrays converted apart (record/float_arrays.h). Should the rest fail, the whole text is
  // parsed again as it is, so that the fault and its position are worded as nlohmann words them.
  constexpr std::size_t kShortestTaken = 8;
  const FloatArrays taken = take_float_arrays(text, kShortestTaken);
  if (!taken.arrays.empty()) {
    StrictBuilder builder;
    builder.put_back(&taken.arrays);
    if (nlohmann::json::sax_parse(taken.text, &builder, nlohmann::json::input_format_t::json, true, false) &&
        builder.all_put_back()) {
      return std::move(builder.result);
    }
  }
  StrictBuilder builder;
  if (nlohmann::json::sax_parse(text, &builder, nlohmann::json::input_format_t::json, true, false)) {
    return std::move(builder.result);
  }
  if (builder.number_overflow_) {
    throw JsonFault("a number beyond the range of a double (" + builder.fault_ + ")");
  }
  if (builder.non_finite_) {
    throw JsonFault("a non-finite number (NaN or Infinity) in the JSON; gbx records never contain one");
  }
  if (builder.fault_.rfind("[json.exception", 0) == 0) {
    throw JsonFault("not valid JSON (truncated?): " + builder.fault_);
  }
  throw JsonFault(builder.fault_);
}

std::string read_json_file(const std::string& path) {
  if (path == "-") {
    std::ostringstream text;
    text << std::cin.rdbuf();
    if (std::cin.bad()) throw JsonFault("cannot read standard input");
    if (text.str().empty()) throw JsonFault("standard input is empty");
    return text.str();
  }
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) {
    throw JsonFault(std::string("cannot open the file: ") + std::strerror(errno));
  }
  if (S_ISDIR(status.st_mode)) throw JsonFault("a directory, not a file");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw JsonFault("cannot open the file");
  // Read in place at the size stat gave (no stream buffer copy), then on to the end should it have grown.
  std::string content(static_cast<std::size_t>(std::max<off_t>(status.st_size, 0)), '\0');
  file.read(content.data(), static_cast<std::streamsize>(content.size()));
  content.resize(static_cast<std::size_t>(file.gcount()));
  if (file.bad()) throw JsonFault("cannot read the file");
  if (file) {
    std::ostringstream rest;
    rest << file.rdbuf();
    content += rest.str();
  }
  if (file.bad()) throw JsonFault("cannot read the file");
  if (content.empty()) throw JsonFault("the file is empty");
  return content;
}

}  // namespace gbx

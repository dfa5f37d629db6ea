#include "record/record_schema.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace gbx {

// Generated at configure time from docs/gbx-record.schema.json (record/CMakeLists.txt).
extern const char* const kRecordSchemaText;

namespace {

using json = nlohmann::json;

// A pattern of the schema's kind: anchored at the start, a sequence of literal characters and
// [classes], each optionally repeated {n} times, then '$' (the whole text) or nothing (a prefix, as
// "^SIG"). Anything else is a schema this reader does not understand.
bool matches_pattern(const std::string& pattern, const std::string& text) {
  if (pattern.size() < 2 || pattern.front() != '^') {
    throw std::logic_error("record schema: unsupported pattern " + pattern);
  }
  const bool whole = pattern.back() == '$';
  const std::size_t end = whole ? pattern.size() - 1 : pattern.size();
  std::size_t at = 0;  // in text
  for (std::size_t p = 1; p < end;) {
    std::set<char> accepted;
    if (pattern[p] == '[') {
      const std::size_t close = pattern.find(']', p);
      if (close == std::string::npos) throw std::logic_error("record schema: unsupported pattern " + pattern);
      for (std::size_t c = p + 1; c < close; ++c) {
        if (c + 2 < close && pattern[c + 1] == '-') {
          for (char x = pattern[c]; x <= pattern[c + 2]; ++x) accepted.insert(x);
          c += 2;
        } else {
          accepted.insert(pattern[c]);
        }
      }
      p = close + 1;
    } else if (std::string("\\.*+?()|{}").find(pattern[p]) == std::string::npos) {
      accepted.insert(pattern[p++]);
    } else {
      throw std::logic_error("record schema: unsupported pattern " + pattern);
    }
    std::size_t count = 1;
    if (p < end && pattern[p] == '{') {
      const std::size_t close = pattern.find('}', p);
      const std::string digits = pattern.substr(p + 1, close - p - 1);
      if (close == std::string::npos || digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
        throw std::logic_error("record schema: unsupported pattern " + pattern);
      }
      count = std::stoul(digits);
      p = close + 1;
    }
    for (std::size_t i = 0; i < count; ++i, ++at) {
      if (at >= text.size() || accepted.count(text[at]) == 0) return false;
    }
  }
  return !whole || at == text.size();
}

bool has_type(const json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "number") return value.is_number();
  if (type == "integer") {
    if (value.is_number_integer()) return true;
    return value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>();
  }
  throw std::logic_error("record schema: unknown type " + type);
}

std::string type_name(const json& value) { return value.is_number_integer() ? "integer" : value.type_name(); }

class Checker {
 public:
  explicit Checker(const json& root) : root_(root) {}

  // The first violation of schema by value at where, or "".
  std::string check(const json& schema, const json& value, const std::string& where) const {
    if (schema.is_boolean()) return schema.get<bool>() ? "" : where + ": not allowed here";
    if (!schema.is_object()) throw std::logic_error("record schema: a schema that is not an object at " + where);
    // The type first: its message says most, and the other keywords then see the kind they expect.
    if (schema.contains("type")) {
      const std::string fault = check_keyword(schema, "type", schema["type"], value, where);
      if (!fault.empty()) return fault;
    }
    for (const auto& [keyword, argument] : schema.items()) {
      const std::string fault = check_keyword(schema, keyword, argument, value, where);
      if (!fault.empty()) return fault;
    }
    return "";
  }

 private:
  std::string check_keyword(const json& schema, const std::string& keyword, const json& argument, const json& value,
                            const std::string& where) const {
    static const std::set<std::string> annotations = {"$schema", "$id", "$defs", "title", "description", "then"};
    if (annotations.count(keyword) != 0) return "";
    if (keyword == "$ref") return check(resolve(argument.get<std::string>()), value, where);
    if (keyword == "type") {
      const json types = argument.is_array() ? argument : json::array({argument});
      for (const json& type : types) {
        if (has_type(value, type.get<std::string>())) return "";
      }
      return where + ": is " + type_name(value) + ", not " +
             (argument.is_array() ? argument.dump() : argument.get<std::string>());
    }
    if (keyword == "const")
      return value == argument ? "" : where + ": is " + value.dump(-1, ' ', true) + ", not " + argument.dump();
    if (keyword == "enum") {
      for (const json& allowed : argument) {
        if (value == allowed) return "";
      }
      return where + ": " + value.dump(-1, ' ', true) + " is not one of " + argument.dump();
    }
    if (keyword == "if") {
      if (!check(argument, value, where).empty() || !schema.contains("then")) return "";
      return check(schema["then"], value, where);
    }
    if (value.is_object()) return check_object_keyword(schema, keyword, argument, value, where);
    if (value.is_array()) return check_array_keyword(keyword, argument, value, where);
    if (value.is_number()) return check_number_keyword(keyword, argument, value, where);
    if (value.is_string() && keyword == "pattern") {
      return matches_pattern(argument.get<std::string>(), value.get<std::string>())
                 ? ""
                 : where + ": " + value.dump(-1, ' ', true) + " does not match " + argument.get<std::string>();
    }
    known(keyword);
    return "";
  }

  std::string check_object_keyword(const json& schema, const std::string& keyword, const json& argument,
                                   const json& value, const std::string& where) const {
    if (keyword == "required") {
      for (const json& key : argument) {
        if (!value.contains(key.get<std::string>())) return where + ": has no \"" + key.get<std::string>() + "\"";
      }
      return "";
    }
    if (keyword == "properties") {
      for (const auto& [key, property] : argument.items()) {
        if (!value.contains(key)) continue;
        const std::string fault = check(property, value[key], where + "/" + key);
        if (!fault.empty()) return fault;
      }
      return "";
    }
    if (keyword == "additionalProperties") {
      for (const auto& [key, item] : value.items()) {
        if (schema.contains("properties") && schema["properties"].contains(key)) continue;
        const std::string fault = check(argument, item, where + "/" + key);
        if (!fault.empty()) return fault;
      }
      return "";
    }
    if (keyword == "dependentRequired") {
      for (const auto& [key, needed] : argument.items()) {
        if (!value.contains(key)) continue;
        for (const json& other : needed) {
          if (!value.contains(other.get<std::string>())) {
            return where + ": has \"" + key + "\" but no \"" + other.get<std::string>() + "\"";
          }
        }
      }
      return "";
    }
    if (keyword == "dependentSchemas") {
      for (const auto& [key, dependent] : argument.items()) {
        if (!value.contains(key)) continue;
        const std::string fault = check(dependent, value, where);
        if (!fault.empty()) return fault;
      }
      return "";
    }
    known(keyword);
    return "";
  }

  std::string check_array_keyword(const std::string& keyword, const json& argument, const json& value,
                                  const std::string& where) const {
    if (keyword == "items") {
      for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string fault = check(argument, value[i], where + "/" + std::to_string(i));
        if (!fault.empty()) return fault;
      }
      return "";
    }
    if (keyword == "minItems") {
      return value.size() >= argument.get<std::size_t>()
                 ? ""
                 : where + ": holds " + std::to_string(value.size()) + " items, fewer than " + argument.dump();
    }
    known(keyword);
    return "";
  }

  std::string check_number_keyword(const std::string& keyword, const json& argument, const json& value,
                                   const std::string& where) const {
    if (keyword != "minimum" && keyword != "exclusiveMinimum" && keyword != "maximum") {
      known(keyword);
      return "";
    }
    const double x = value.get<double>();
    const double bound = argument.get<double>();
    if (keyword == "minimum") return x >= bound ? "" : where + ": " + value.dump() + " is below " + argument.dump();
    if (keyword == "exclusiveMinimum") {
      return x > bound ? "" : where + ": " + value.dump() + " is not above " + argument.dump();
    }
    if (keyword == "maximum") return x <= bound ? "" : where + ": " + value.dump() + " is above " + argument.dump();
    known(keyword);
    return "";
  }

  // A keyword that applies to another kind of value passes; one this reader does not know is an error.
  static void known(const std::string& keyword) {
    static const std::set<std::string> all = {
        "required", "properties", "additionalProperties", "dependentRequired", "dependentSchemas", "items",
        "minItems", "minimum",    "exclusiveMinimum",     "maximum",           "pattern"};
    if (all.count(keyword) == 0) throw std::logic_error("record schema: unsupported keyword " + keyword);
  }

  const json& resolve(const std::string& reference) const {
    if (reference.rfind("#/", 0) != 0) throw std::logic_error("record schema: unsupported $ref " + reference);
    return root_.at(json::json_pointer(reference.substr(1)));
  }

  const json& root_;
};

}  // namespace

const nlohmann::json& record_schema() {
  static const json schema = json::parse(kRecordSchemaText);
  return schema;
}

std::string schema_violation(const nlohmann::json& schema, const nlohmann::json& value) {
  const std::string fault = Checker(schema).check(schema, value, "");
  return fault.rfind(":", 0) == 0 ? "the top level" + fault : fault;
}

std::string schema_violation(const nlohmann::json& record) { return schema_violation(record_schema(), record); }

}  // namespace gbx

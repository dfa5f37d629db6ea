#pragma once

// Hand-built records for tests: a test writes only the keys it is about, and complete_record adds
// every other key the record schema (docs/gbx-record.schema.json) requires, with the plainest value
// the schema allows (null, else 0, false, "", the first enum value, the minimum), so that the
// reader, which refuses a record missing a required key, reads it. Driven by the schema itself, so
// a key the schema comes to require is filled without touching the tests.

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

#include "record/record_schema.h"

namespace gbx_test {

namespace complete_detail {

using json = nlohmann::json;

inline const json& resolve(const json& schema) {
  if (schema.is_object() && schema.contains("$ref")) {
    const std::string reference = schema["$ref"].get<std::string>();
    return resolve(gbx::record_schema().at(json::json_pointer(reference.substr(1))));
  }
  return schema;
}

// The shortest text matching a pattern of the schema's subset: the first character of each class.
inline std::string text_matching(const std::string& pattern) {
  std::string text;
  for (std::size_t p = 1; p < pattern.size() && pattern[p] != '$';) {
    char c = pattern[p];
    if (c == '[') {
      c = pattern[p + 1];
      p = pattern.find(']', p) + 1;
    } else {
      ++p;
    }
    std::size_t count = 1;
    if (p < pattern.size() && pattern[p] == '{') {
      const std::size_t close = pattern.find('}', p);
      count = std::stoul(pattern.substr(p + 1, close - p - 1));
      p = close + 1;
    }
    text.append(count, c);
  }
  return text;
}

// The type a default takes: null where the schema allows it (the record's word for "unknown", so
// that a reader falls back on what the test did give, as the samples), else the first type named.
inline std::string default_type(const json& schema) {
  if (!schema.contains("type")) return "";
  if (schema["type"].is_string()) return schema["type"].get<std::string>();
  for (const json& type : schema["type"]) {
    if (type == "null") return "null";
  }
  return schema["type"].front().get<std::string>();
}

inline void complete(const json& schema_or_ref, json& value);

inline json default_value(const json& schema_or_ref) {
  const json& schema = resolve(schema_or_ref);
  if (!schema.is_object()) return nullptr;
  if (schema.contains("const")) return schema["const"];
  if (schema.contains("enum")) return schema["enum"].front();
  const std::string type = default_type(schema);
  if (type == "object") {
    json value = json::object();
    complete(schema, value);
    return value;
  }
  if (type == "array") {
    json value = json::array();
    for (std::size_t i = 0; i < schema.value("minItems", std::size_t{0}); ++i) {
      value.push_back(default_value(schema.value("items", json::object())));
    }
    return value;
  }
  if (type == "string") return schema.contains("pattern") ? json(text_matching(schema["pattern"])) : json("");
  if (type == "boolean") return false;
  if (type == "integer" || type == "number") {
    if (schema.contains("minimum")) return schema["minimum"];
    if (schema.contains("exclusiveMinimum")) return schema["exclusiveMinimum"].get<double>() + 1;
    return 0;
  }
  return nullptr;
}

inline json property_schema(const json& schema, const std::string& key) {
  if (schema.contains("properties") && schema["properties"].contains(key)) return schema["properties"][key];
  return json::object();
}

inline void add_missing(const json& schema, const json& keys, json& value) {
  for (const json& key : keys) {
    const std::string name = key.get<std::string>();
    if (!value.contains(name)) value[name] = default_value(property_schema(schema, name));
  }
}

// Adds, in place, what value lacks of what the schema requires, at every depth.
inline void complete(const json& schema_or_ref, json& value) {
  const json& schema = resolve(schema_or_ref);
  if (!schema.is_object()) return;
  if (value.is_object()) {
    if (schema.contains("required")) add_missing(schema, schema["required"], value);
    if (schema.contains("dependentRequired")) {
      for (const auto& [key, needed] : schema["dependentRequired"].items()) {
        if (value.contains(key)) add_missing(schema, needed, value);
      }
    }
    if (schema.contains("dependentSchemas")) {
      for (const auto& [key, dependent] : schema["dependentSchemas"].items()) {
        const bool condition_holds = dependent.contains("if") && gbx::schema_violation(dependent["if"], value).empty();
        if (value.contains(key) && condition_holds && dependent["then"].contains("required")) {
          add_missing(schema, dependent["then"]["required"], value);
        }
      }
    }
    for (auto& [key, item] : value.items()) {
      if (schema.contains("properties") && schema["properties"].contains(key)) {
        complete(schema["properties"][key], item);
      } else if (schema.contains("additionalProperties")) {
        complete(schema["additionalProperties"], item);
      }
    }
  } else if (value.is_array() && schema.contains("items")) {
    for (json& item : value) complete(schema["items"], item);
  }
}

}  // namespace complete_detail

// `partial` with every key the record schema requires and it lacks added (see above).
inline nlohmann::json complete_record(nlohmann::json partial) {
  complete_detail::complete(gbx::record_schema(), partial);
  return partial;
}

// The smallest record the schema accepts: no benchmarks, every required key at its plainest value.
inline nlohmann::json minimal_valid_record() { return complete_record(nlohmann::json::object()); }

}  // namespace gbx_test

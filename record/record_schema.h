#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace gbx {

// The record schema, docs/gbx-record.schema.json, as built into this gbx.
const nlohmann::json& record_schema();

// Checks a parsed record against the record schema: the one definition of a valid record, shared
// with the documentation (tests/record/schema_test.sh checks real records against the same file
// with Python's jsonschema). Returns the first violation as "<JSON pointer>: <fault>", or "" when
// the record is valid. Supports the JSON Schema keywords the schema uses; a schema using any other
// throws std::logic_error, so the two cannot drift apart silently.
std::string schema_violation(const nlohmann::json& record);

// As schema_violation, against any schema in the same subset (for tests).
std::string schema_violation(const nlohmann::json& schema, const nlohmann::json& value);

}  // namespace gbx

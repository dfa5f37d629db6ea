#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

// Lenient reads of a record's JSON for the report's model (report/report_model.h): the reader
// (record/record_reader.h) has checked what must be there; what may be absent reads as absent here.
// Internal to the report's model.

namespace gbx::tools::report_json {

using Fact = std::pair<std::string, std::string>;

// A finite number at object[key], else absent.
std::optional<double> number_at(const nlohmann::json& object, const char* key);
// object[key] when it is an object, else an empty object.
const nlohmann::json& object_at(const nlohmann::json& object, const char* key);
// object[key] as text: strings as they are, booleans as yes/no, null or absent as "", else its JSON.
std::string string_at(const nlohmann::json& object, const char* key);

std::string join(const std::vector<std::string>& parts, const std::string& separator);
// "a", "a and b", "a, b and c".
std::string join_words(const std::vector<std::string>& parts);

// The facts of a record's environment and protocol, as the report lists them (labels and values).
std::vector<Fact> gbx_environment(const nlohmann::json& record);
std::vector<Fact> plain_environment(const nlohmann::json& record);
std::vector<Fact> protocol_facts(const nlohmann::json& record);
// What plain Google Benchmark JSON cannot say.
const std::vector<std::string>& plain_missing_facts();

}  // namespace gbx::tools::report_json

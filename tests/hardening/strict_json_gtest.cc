// The strict record parser and the schema check (record/json_parse.h, record/record_schema.h).
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <string>

#include "record/json_parse.h"
#include "record/record_schema.h"

namespace {

std::string fault_of(const std::string& text) {
  try {
    gbx::parse_json_strictly(text);
  } catch (const gbx::JsonFault& fault) {
    return fault.what();
  }
  return "";
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

nlohmann::json seed_record() {
  return gbx::parse_json_strictly(gbx::read_json_file(GBX_FUZZ_CORPUS "/seed-variants.json"));
}

TEST(StrictJson, ReadsWhatThePlainParserReads) {
  const std::string text = R"({"a": [1, -2, 3.5, "x\u00e9", true, null, {"b": {}}], "c": 1e300})";
  EXPECT_EQ(gbx::parse_json_strictly(text), nlohmann::json::parse(text));
}

TEST(StrictJson, RefusesANumberBeyondADouble) {
  EXPECT_NE(fault_of(R"({"samples": [1e999]})").find("beyond the range of a double"), std::string::npos);
  EXPECT_NE(fault_of("-1e999").find("beyond the range"), std::string::npos);
}

TEST(StrictJson, NamesNaNAndInfinity) {
  for (const char* text : {"[NaN]", R"({"a": -Infinity})", "[1, Infinity]", "[nan]", "[-inf]"}) {
    EXPECT_NE(fault_of(text).find("non-finite"), std::string::npos) << text;
  }
  EXPECT_NE(fault_of("[1, 2").find("not valid JSON"), std::string::npos);
  EXPECT_NE(fault_of("[nul]").find("not valid JSON"), std::string::npos);
}

TEST(StrictJson, RefusesADuplicateKeyAtAnyDepth) {
  EXPECT_NE(fault_of(R"({"benchmarks": [], "benchmarks": [1]})").find("\"benchmarks\" appears twice"),
            std::string::npos);
  EXPECT_NE(fault_of(R"({"a": [{"x": 1, "y": 2, "x": 3}]})").find("\"x\" appears twice"), std::string::npos);
  EXPECT_EQ(fault_of(R"({"a": {"x": 1}, "b": {"x": 1}})"), "");  // the same key in two objects is fine
}

TEST(StrictJson, RefusesNestingBeyondTheLimitWithoutRecursing) {
  EXPECT_EQ(fault_of(nested(gbx::kMaxJsonDepth)), "");
  EXPECT_NE(fault_of(nested(gbx::kMaxJsonDepth + 1)).find("nesting deeper than"), std::string::npos);
  // Deep enough to overflow any recursive reader's stack.
  EXPECT_NE(fault_of(nested(200000)).find("nesting deeper than"), std::string::npos);
  EXPECT_NE(fault_of("{\"a\":" + nested(60000) + "}").find("nesting deeper than"), std::string::npos);
}

TEST(StrictJson, NamesADirectoryAnEmptyFileAndAMissingOne) {
  const auto fault_reading = [](const std::string& path) {
    try {
      gbx::read_json_file(path);
    } catch (const gbx::JsonFault& fault) {
      return std::string(fault.what());
    }
    return std::string();
  };
  char directory[] = "/tmp/gbx-strict-json-XXXXXX";
  ASSERT_NE(::mkdtemp(directory), nullptr);
  const std::string empty = std::string(directory) + "/empty.json";
  std::ofstream(empty).close();
  EXPECT_NE(fault_reading(directory).find("a directory"), std::string::npos);
  EXPECT_NE(fault_reading(empty).find("empty"), std::string::npos);
  EXPECT_NE(fault_reading(std::string(directory) + "/missing.json").find("cannot open"), std::string::npos);
  ::unlink(empty.c_str());
  ::rmdir(directory);
}

TEST(RecordSchema, ARealRecordIsValid) { EXPECT_EQ(gbx::schema_violation(seed_record()), ""); }

TEST(RecordSchema, NamesWhereAMutantBreaksIt) {
  nlohmann::json record = seed_record();
  std::size_t measured = 0;
  while (record["benchmarks"][measured].value("error_occurred", false)) ++measured;
  const std::string entry = "/benchmarks/" + std::to_string(measured);
  auto mutant = record;
  mutant["benchmarks"][measured]["gbx"]["samples"][0] = -1.0;
  EXPECT_EQ(gbx::schema_violation(mutant).rfind(entry + "/gbx/samples/0:", 0), 0u) << gbx::schema_violation(mutant);
  mutant = record;
  mutant["benchmarks"][measured]["gbx"]["problem"] = 5;
  EXPECT_EQ(gbx::schema_violation(mutant), entry + "/gbx/problem: is integer, not string");
  mutant = record;
  mutant["gbx"]["interrupted"] = "no";
  EXPECT_EQ(gbx::schema_violation(mutant), "/gbx/interrupted: is string, not boolean");
  mutant = record;
  mutant["gbx"]["run_id"] = "not-a-uuid";
  EXPECT_NE(gbx::schema_violation(mutant).find("/gbx/run_id: \"not-a-uuid\" does not match"), std::string::npos);
  mutant = record;
  mutant["gbx"].erase("environment");
  EXPECT_EQ(gbx::schema_violation(mutant), "/gbx: has no \"environment\"");
}

TEST(RecordSchema, AnythingButAnObjectIsNamedNotThrown) {
  // The fuzzer's first find: a number at the top met "properties" before "type".
  EXPECT_EQ(gbx::schema_violation(nlohmann::json(11)), "the top level: is integer, not object");
  EXPECT_EQ(gbx::schema_violation(nlohmann::json::array()), "the top level: is array, not object");
  EXPECT_EQ(gbx::schema_violation(nlohmann::json("x")), "the top level: is string, not object");
}

TEST(RecordSchema, KeywordsItDoesNotKnowAreAnErrorNotAPass) {
  const nlohmann::json schema = {{"type", "object"}, {"propertyNames", {{"maxLength", 3}}}};
  EXPECT_THROW(gbx::schema_violation(schema, nlohmann::json::object()), std::logic_error);
  const nlohmann::json pattern = {{"type", "string"}, {"pattern", "^a+$"}};
  EXPECT_THROW(gbx::schema_violation(pattern, "aaa"), std::logic_error);
}

TEST(RecordSchema, PatternsOfTheSchemasKind) {
  const nlohmann::json schema = {{"pattern", "^[0-9a-f]{4}-4[89ab]Z$"}};
  EXPECT_EQ(gbx::schema_violation(schema, "09af-48Z"), "");
  EXPECT_NE(gbx::schema_violation(schema, "09af-48Zx"), "");
  EXPECT_NE(gbx::schema_violation(schema, "09aF-48Z"), "");
  EXPECT_NE(gbx::schema_violation(schema, "09af-47Z"), "");
  EXPECT_NE(gbx::schema_violation(schema, "09a-48Z"), "");
}

}  // namespace

// The float arrays the strict parser converts apart (record/float_arrays.h): exactly the arrays of
// JSON floats, the values strtod gives, and the same document once parsed.
#include "record/float_arrays.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

#include "record/json_parse.h"

namespace {

using gbx::take_float_arrays;

TEST(FloatArrays, TakesOnlyArraysOfFloats) {
  const std::string text =
      R"({"a": [1.5, -2e-3, 0.25E+2], "b": [1, 2.5], "c": "[1.5, 2.5]", "d": [[3.5, 4.5], []], "e": [1.5, x]})";
  const gbx::FloatArrays taken = take_float_arrays(text, 1);
  // Ordinals: a 0, b 1, d 2, d[0] 3, d[1] 4, e 5; the string's brackets are no array.
  ASSERT_EQ(taken.arrays.size(), 2U);
  EXPECT_EQ(taken.arrays[0].first, 0U);
  EXPECT_EQ(taken.arrays[0].second, (std::vector<double>{1.5, -2e-3, 25.0}));
  EXPECT_EQ(taken.arrays[1].first, 3U);
  EXPECT_EQ(taken.arrays[1].second, (std::vector<double>{3.5, 4.5}));
  EXPECT_EQ(taken.text, R"({"a": [], "b": [1, 2.5], "c": "[1.5, 2.5]", "d": [[], []], "e": [1.5, x]})");
  EXPECT_TRUE(take_float_arrays(text, 4).arrays.empty());
  EXPECT_TRUE(take_float_arrays(text, 4).text.empty());
}

TEST(FloatArrays, LeavesWhatJsonOrADoubleRefuses) {
  for (const char* text : {"[01.5]", "[1.]", "[.5]", "[+1.5]", "[1.5e]", "[1e999]", "[-1e999]", "[NaN]", "[1.5,]",
                           "[1.5 2.5]", "[1.5", "[\"1.5\"]", "[0x1p3]", "[1.5,\f2.5]"}) {
    EXPECT_TRUE(take_float_arrays(text, 1).arrays.empty()) << text;
  }
  EXPECT_EQ(take_float_arrays("[ 1.5 ,\n\t2.5\r ]", 1).arrays.size(), 1U);
  EXPECT_EQ(take_float_arrays(R"(["a\"[", [1.5]])", 1).arrays.at(0).first, 1U);  // an escaped quote
}

TEST(FloatArrays, ValuesAreStrtods) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(-300.0, 300.0);
  nlohmann::json samples = nlohmann::json::array();
  for (int i = 0; i < 20000; ++i) {
    samples.push_back(std::pow(10.0, exponent(random)) * (i % 3 == 0 ? -1.0 : 1.0));
  }
  std::string text = samples.dump(1);
  text.insert(1,
              "4.9406564584124654e-324, 2.2250738585072011e-308, 1.7976931348623157e+308, 0.30000000000000004,"
              " 123456789012345678901234567890.5, 1.00000000000000011102230246251565404236316680908203125,");
  const gbx::FloatArrays taken = take_float_arrays(text, 1);
  ASSERT_EQ(taken.arrays.size(), 1U);
  const nlohmann::json plain = nlohmann::json::parse(text);
  ASSERT_EQ(taken.arrays[0].second.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    ASSERT_EQ(taken.arrays[0].second[i], plain[i].get<double>()) << i;
  }
  EXPECT_EQ(gbx::parse_json_strictly(text), plain);
  EXPECT_EQ(gbx::parse_json_strictly(text).dump(), plain.dump());
}

TEST(FloatArrays, TheStrictParserReadsTheSameDocument) {
  const std::string samples = "[1.5e-06, 2.5e-06, 3.5e-06, 4.5e-06, 5.5e-06, 6.5e-06, 7.5e-06, 8.5e-06, 9.5e-06]";
  const std::string text = R"({"benchmarks": [{"gbx": {"samples": )" + samples + R"(, "x": [[)" + samples + "], " +
                           samples + R"(, 1]}, "n": [1, 2, 3, 4, 5, 6, 7, 8, 9]}], "s": "[1.5]"})";
  EXPECT_EQ(gbx::parse_json_strictly(text), nlohmann::json::parse(text));
  // Underflow: whatever from_chars makes of it, the value is strtod's.
  const std::string tiny = "[1e-400, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5]";
  EXPECT_EQ(gbx::parse_json_strictly(tiny), nlohmann::json::parse(tiny));
  // A fault after a taken array is worded and placed as in the text as it was.
  const std::string broken = R"({"samples": )" + samples + R"(, "a": [1, 2,]})";
  std::string plain_fault;
  try {
    const nlohmann::json parsed = nlohmann::json::parse(broken);
    ADD_FAILURE() << parsed.dump();
  } catch (const nlohmann::json::parse_error& error) {
    plain_fault = error.what();
  }
  ASSERT_FALSE(plain_fault.empty());
  try {
    gbx::parse_json_strictly(broken);
    FAIL() << "parsed";
  } catch (const gbx::JsonFault& fault) {
    EXPECT_NE(std::string(fault.what()).find(plain_fault), std::string::npos) << fault.what();
  }
  try {
    gbx::parse_json_strictly(R"({"samples": )" + samples + R"(, "samples": []})");
    FAIL() << "parsed";
  } catch (const gbx::JsonFault& fault) {
    EXPECT_NE(std::string(fault.what()).find("\"samples\" appears twice"), std::string::npos) << fault.what();
  }
}

}  // namespace

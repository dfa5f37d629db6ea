// The seal checked on a record's own text (record/checksum.h): the text less whitespace and gbx.checksum
// is the canonical text for what gbx writes, and a text it is not gives the same verdict as before.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "record/checksum.h"
#include "tests/report/records.h"

namespace {

using json = nlohmann::json;

json sealed_record() {
  report_test::Entry e = report_test::entry("BM_a/1", "a/n=1", "v0", {1.5e-6, 2.25e-6, 1.0, 3.0e-7});
  json record = report_test::gbx_record({e}, "seal-text", "2026-12-01T00:00:00Z");
  // Strings that a scanner of the text could misread: escapes, whitespace, braces, a nested "checksum".
  record["gbx"]["zz_note"] = "a \"quoted\" {brace}, [bracket]: and \\ tab\t";
  record["benchmarks"][0]["gbx"]["checksum"] = "not the seal";
  gbx::seal_record(record, std::nullopt);
  return record;
}

TEST(SealText, IndentedTextLessSealIsTheCanonicalText) {
  const json record = sealed_record();
  for (const int indent : {-1, 1, 2, 4}) {
    EXPECT_EQ(gbx::compact_text_without_seal(record.dump(indent)), gbx::canonical_text(record)) << indent;
  }
}

TEST(SealText, TheSealIsCutWhereverItStands) {
  // First member, a middle one, the only one, and a seal that is not an object.
  EXPECT_EQ(gbx::compact_text_without_seal(R"({"gbx": {"checksum": {"v": [1, 2]}, "b": 1}})"), R"({"gbx":{"b":1}})");
  EXPECT_EQ(gbx::compact_text_without_seal(R"({"a":0,"gbx":{"a":[],"checksum":{},"z":"}"}})"),
            R"({"a":0,"gbx":{"a":[],"z":"}"}})");
  EXPECT_EQ(gbx::compact_text_without_seal(R"({"gbx":{"checksum":"x"}})"), R"({"gbx":{}})");
  EXPECT_EQ(gbx::compact_text_without_seal(R"({"gbx":{"a":1,"checksum":null}})"), R"({"gbx":{"a":1}})");
  // Only the top-level gbx object's: not a nested gbx, nor a string value "gbx".
  EXPECT_EQ(gbx::compact_text_without_seal(R"({"x":{"gbx":{"checksum":1}},"y":"gbx","gbx":{"checksum":2}})"),
            R"({"x":{"gbx":{"checksum":1}},"y":"gbx","gbx":{}})");
}

TEST(SealText, VerdictsAgreeWithTheParsedCheck) {
  const json record = sealed_record();
  const gbx::SealCheck indented = gbx::check_seal(record, record.dump(2));
  EXPECT_EQ(indented.status, gbx::SealStatus::intact);
  EXPECT_EQ(indented.computed, gbx::check_seal(record).computed);

  // A text whose digest differs (a number spelled otherwise) still verifies through the parsed record.
  std::string respelled = record.dump(2);
  const std::string sample = "2.25e-06";
  ASSERT_NE(respelled.find(sample), std::string::npos);
  respelled.replace(respelled.find(sample), sample.size(), "2.250e-6");
  EXPECT_EQ(json::parse(respelled), record);
  EXPECT_NE(gbx::compact_text_without_seal(respelled), gbx::canonical_text(record));
  EXPECT_EQ(gbx::check_seal(record, respelled).status, gbx::SealStatus::intact);

  json changed = record;
  changed["benchmarks"][0]["gbx"]["samples"][0] = 9.0;
  EXPECT_EQ(gbx::check_seal(changed, changed.dump(2)).status, gbx::SealStatus::mismatch);
  EXPECT_EQ(gbx::check_seal(changed, changed.dump(2)).recorded, gbx::check_seal(changed).recorded);

  json unsealed = record;
  unsealed["gbx"].erase("checksum");
  EXPECT_EQ(gbx::check_seal(unsealed, unsealed.dump(2)).status, gbx::SealStatus::missing);
  json other = record;
  other["gbx"]["checksum"]["algorithm"] = "md5";
  EXPECT_EQ(gbx::check_seal(other, other.dump(2)).status, gbx::SealStatus::missing);
}

}  // namespace

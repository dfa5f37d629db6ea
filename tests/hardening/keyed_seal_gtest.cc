// The optional keyed seal: HMAC-SHA-256 under $GBX_SEAL_KEY beside the unkeyed SHA-256, and what
// gbx verify says of it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "cli/verify_command.h"
#include "record/checksum.h"
#include "record/record_schema.h"
#include "tests/support/complete_record.h"

namespace {

using json = nlohmann::json;

json sealed(const std::optional<std::string>& key) {
  json record = gbx_test::minimal_valid_record();
  record["context"]["host_name"] = "node-a";
  gbx::seal_record(record, key);
  return record;
}

struct Verdict {
  int code;
  std::string out;
};

// gbx verify of record, with $GBX_SEAL_KEY set to key (unset when empty).
Verdict verify(const json& record, const std::string& key) {
  const std::string path =
      ::testing::TempDir() + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json";
  std::ofstream(path) << record.dump(2);
  if (key.empty()) {
    ::unsetenv("GBX_SEAL_KEY");
  } else {
    ::setenv("GBX_SEAL_KEY", key.c_str(), 1);
  }
  std::ostringstream out, err;
  const int code = gbx::tools::verify_record(path, out, err);
  ::unsetenv("GBX_SEAL_KEY");
  return {code, out.str() + err.str()};
}

TEST(KeyedSeal, IsHmacSha256) {
  // RFC 4231, test case 2.
  EXPECT_EQ(gbx::hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(KeyedSeal, IsWrittenOnlyWithAKeyAndFitsTheSchema) {
  EXPECT_FALSE(sealed(std::nullopt)["gbx"]["checksum"].contains("keyed"));
  const json record = sealed(std::string("s3cret"));
  EXPECT_EQ(record["gbx"]["checksum"]["keyed"]["algorithm"], "hmac-sha256");
  EXPECT_EQ(gbx::schema_violation(record), "");
  // The unkeyed seal is the same with or without a key: it covers the record without gbx.checksum.
  EXPECT_EQ(record["gbx"]["checksum"]["value"], sealed(std::nullopt)["gbx"]["checksum"]["value"]);
}

TEST(KeyedSeal, TheKeyIsTakenFromTheEnvironment) {
  ::setenv("GBX_SEAL_KEY", "from-env", 1);
  json record = gbx_test::minimal_valid_record();
  gbx::seal_record(record);
  ::setenv("GBX_SEAL_KEY", "", 1);
  EXPECT_FALSE(gbx::seal_key_from_environment().has_value());
  ::unsetenv("GBX_SEAL_KEY");
  EXPECT_EQ(gbx::check_keyed_seal(record, "from-env"), gbx::KeyedSealStatus::valid);
}

TEST(KeyedSeal, ChecksTheKeyAndTheContent) {
  const json record = sealed(std::string("s3cret"));
  EXPECT_EQ(gbx::check_keyed_seal(record, "s3cret"), gbx::KeyedSealStatus::valid);
  EXPECT_EQ(gbx::check_keyed_seal(record, "s3cres"), gbx::KeyedSealStatus::invalid);
  json changed = record;
  changed["context"]["host_name"] = "node-b";
  EXPECT_EQ(gbx::check_keyed_seal(changed, "s3cret"), gbx::KeyedSealStatus::invalid);
  EXPECT_EQ(gbx::check_keyed_seal(sealed(std::nullopt), "s3cret"), gbx::KeyedSealStatus::absent);
  json odd = record;
  odd["gbx"]["checksum"]["keyed"] = "not an object";
  EXPECT_EQ(gbx::check_keyed_seal(odd, "s3cret"), gbx::KeyedSealStatus::absent);
  EXPECT_EQ(gbx::check_keyed_seal(json(3), "s3cret"), gbx::KeyedSealStatus::absent);
}

TEST(KeyedSeal, VerifySaysValidInvalidOrAbsent) {
  const json keyed = sealed(std::string("s3cret"));
  Verdict v = verify(keyed, "s3cret");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("intact"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("keyed seal: valid"), std::string::npos) << v.out;

  v = verify(keyed, "wrong");
  EXPECT_EQ(v.code, 1) << v.out;
  EXPECT_NE(v.out.find("keyed seal: invalid"), std::string::npos) << v.out;

  // Changed and resealed by one without the key: the SHA-256 is intact, the keyed seal gone.
  json forged = keyed;
  forged["context"]["host_name"] = "node-b";
  gbx::seal_record(forged, std::nullopt);
  v = verify(forged, "s3cret");
  EXPECT_EQ(v.code, 1) << v.out;
  EXPECT_NE(v.out.find("intact"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("keyed seal: absent"), std::string::npos) << v.out;

  // Without a key, verify checks the SHA-256 alone and says nothing of a keyed seal.
  v = verify(keyed, "");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_EQ(v.out.find("keyed seal"), std::string::npos) << v.out;
}

}  // namespace

#include "record/checksum.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace gbx {

std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 failed in libcrypto");
  }
  static const char* hex = "0123456789abcdef";
  std::string text;
  text.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    text += hex[digest[i] >> 4];
    text += hex[digest[i] & 0x0f];
  }
  return text;
}

std::string canonical_text(const nlohmann::json& record) {
  nlohmann::json copy = record;
  if (copy.is_object() && copy.contains("gbx") && copy["gbx"].is_object()) copy["gbx"].erase("checksum");
  // nlohmann's objects keep keys sorted, and numbers print in their shortest round-trip form.
  return copy.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

void seal_record(nlohmann::json& record) {
  const std::string value = sha256_hex(canonical_text(record));
  record["gbx"]["checksum"] = {{"algorithm", "sha256"}, {"value", value}};
}

SealCheck check_seal(const nlohmann::json& record) {
  SealCheck check;
  if (!record.is_object() || !record.contains("gbx") || !record["gbx"].is_object()) return check;
  const auto& gbx = record["gbx"];
  // A wrong-typed field reads as no seal (verify: exit 2), never as nlohmann's type_error.
  if (!gbx.contains("checksum") || !gbx["checksum"].is_object()) return check;
  const auto& checksum = gbx["checksum"];
  if (!checksum.contains("algorithm") || checksum["algorithm"] != nlohmann::json("sha256") || !checksum.contains("value") || !checksum["value"].is_string()) {
    return check;
  }
  check.recorded = checksum["value"].get<std::string>();
  check.computed = sha256_hex(canonical_text(record));
  check.status = check.recorded == check.computed ? SealStatus::intact : SealStatus::mismatch;
  return check;
}

}  // namespace gbx

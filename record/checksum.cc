#include "record/checksum.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdlib>
#include <stdexcept>

namespace gbx {

namespace {

std::string hex_of(const unsigned char* digest, unsigned int length) {
  static const char* hex = "0123456789abcdef";
  std::string text;
  text.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    text += hex[digest[i] >> 4];
    text += hex[digest[i] & 0x0f];
  }
  return text;
}

}  // namespace

std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 failed in libcrypto");
  }
  return hex_of(digest, length);
}

std::string hmac_sha256_hex(const std::string& key, const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(bytes.data()),
           bytes.size(), digest, &length) == nullptr) {
    throw std::runtime_error("HMAC-SHA-256 failed in libcrypto");
  }
  return hex_of(digest, length);
}

std::optional<std::string> seal_key_from_environment() {
  const char* key = std::getenv("GBX_SEAL_KEY");
  if (key == nullptr || *key == '\0') return std::nullopt;
  return std::string(key);
}

std::string canonical_text(const nlohmann::json& record) {
  nlohmann::json copy = record;
  if (copy.is_object() && copy.contains("gbx") && copy["gbx"].is_object()) copy["gbx"].erase("checksum");
  // nlohmann's objects keep keys sorted, and numbers print in their shortest round-trip form.
  return copy.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

void seal_record(nlohmann::json& record, const std::optional<std::string>& key) {
  const std::string text = canonical_text(record);
  record["gbx"]["checksum"] = {{"algorithm", "sha256"}, {"value", sha256_hex(text)}};
  if (key) record["gbx"]["checksum"]["keyed"] = {{"algorithm", "hmac-sha256"}, {"value", hmac_sha256_hex(*key, text)}};
}

SealCheck check_seal(const nlohmann::json& record) {
  SealCheck check;
  if (!record.is_object() || !record.contains("gbx") || !record["gbx"].is_object()) return check;
  const auto& gbx = record["gbx"];
  // A wrong-typed field reads as no seal (verify: exit 2), never as nlohmann's type_error.
  if (!gbx.contains("checksum") || !gbx["checksum"].is_object()) return check;
  const auto& checksum = gbx["checksum"];
  if (!checksum.contains("algorithm") || checksum["algorithm"] != nlohmann::json("sha256") ||
      !checksum.contains("value") || !checksum["value"].is_string()) {
    return check;
  }
  check.recorded = checksum["value"].get<std::string>();
  check.computed = sha256_hex(canonical_text(record));
  check.status = check.recorded == check.computed ? SealStatus::intact : SealStatus::mismatch;
  return check;
}

KeyedSealStatus check_keyed_seal(const nlohmann::json& record, const std::string& key) {
  const nlohmann::json* keyed = &record;
  for (const char* key_on_path : {"gbx", "checksum", "keyed"}) {
    if (!keyed->is_object() || !keyed->contains(key_on_path)) return KeyedSealStatus::absent;
    keyed = &(*keyed)[key_on_path];
  }
  if (!keyed->is_object() || keyed->value("algorithm", nlohmann::json()) != "hmac-sha256" ||
      !keyed->contains("value") || !(*keyed)["value"].is_string()) {
    return KeyedSealStatus::absent;
  }
  const std::string recorded = (*keyed)["value"].get<std::string>();
  const std::string computed = hmac_sha256_hex(key, canonical_text(record));
  // Constant time, so that the time to refuse a forgery says nothing of how close it came.
  const bool same =
      recorded.size() == computed.size() && CRYPTO_memcmp(recorded.data(), computed.data(), computed.size()) == 0;
  return same ? KeyedSealStatus::valid : KeyedSealStatus::invalid;
}

}  // namespace gbx

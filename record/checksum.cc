#include "record/checksum.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace gbx {

namespace {

std::string hex_of(const unsigned char* digest, unsigned int length) {
  static const char* hex = "0123456789abcdef";
  std::string text;
  text.reserve(2 * static_cast<std::size_t>(length));
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

SealCheck check_seal(const nlohmann::json& record, const std::string& text) {
  if (!record.is_object() || !record.contains("gbx") || !record["gbx"].is_object()) return check_seal(record);
  const auto& checksum = record["gbx"].value("checksum", nlohmann::json());
  if (!checksum.is_object() || checksum.value("algorithm", nlohmann::json()) != "sha256" ||
      !checksum.contains("value") || !checksum["value"].is_string()) {
    return check_seal(record);
  }
  const std::string digest = sha256_hex(compact_text_without_seal(text));
  // A digest equal to the seal means the compact text is what was sealed, and it reads as this record.
  if (digest == checksum["value"].get<std::string>()) {
    return SealCheck{SealStatus::intact, digest, digest};
  }
  return check_seal(record);
}

namespace {

enum CharClass : unsigned char { token = 0, space, quote, structural };

// What each byte is to the scanner below; bytes within strings are skipped by the string scan.
struct CharClasses {
  unsigned char of[256] = {};
  CharClasses() {
    for (const unsigned char c : {' ', '\t', '\n', '\r'}) of[c] = space;
    of[static_cast<unsigned char>('"')] = quote;
    for (const unsigned char c : {'{', '}', '[', ']', ',', ':'}) of[c] = structural;
  }
};

}  // namespace

std::string compact_text_without_seal(const std::string& text) {
  static const CharClasses classes;
  const char* p = text.data();
  const std::size_t n = text.size();
  const auto class_of = [&](std::size_t i) { return classes.of[static_cast<unsigned char>(p[i])]; };
  std::string out;
  out.reserve(n);
  // The text from run to i is copied at the next whitespace (or cut): a compact text is copied whole.
  std::size_t run = 0;
  const auto flush = [&](std::size_t i) { out.append(p + run, i - run); };
  // The containers open at each depth, and where the gbx object and its checksum member are.
  std::string open;  // '{' or '[' per depth
  bool expect_key = false;
  bool gbx_next = false;                // the value being read is the top level's "gbx"
  std::size_t gbx_depth = 0;            // depth of the gbx object's members, 0 when not inside it
  std::size_t cut = std::string::npos;  // the checksum's value is being skipped from here in out
  bool drop_comma = false;              // the checksum was the first member: its following comma goes
  std::size_t i = 0;
  while (i < n) {
    const char c = p[i];
    switch (class_of(i)) {
      case space:
        flush(i);
        while (i < n && class_of(i) == space) ++i;
        run = i;
        continue;
      case token:
        while (i < n && class_of(i) == token) ++i;
        gbx_next = false;  // a number or a literal
        continue;
      case quote: {
        const std::size_t begin = i;
        std::size_t j = i + 1;
        while (j < n && p[j] != '"') j += p[j] == '\\' ? 2 : 1;
        i = std::min(j + 1, n);  // past the closing quote
        if (!expect_key) {
          gbx_next = false;  // a string value
          continue;
        }
        expect_key = false;
        const std::string_view key(p + begin + 1, std::min(j, n) - begin - 1);
        if (open.size() == 1 && open[0] == '{') gbx_next = key == "gbx";
        if (gbx_depth != 0 && open.size() == gbx_depth && key == "checksum") {
          flush(begin);
          if (!out.empty() && out.back() == ',') {
            out.pop_back();
          } else {
            drop_comma = true;
          }
          cut = out.size();
          run = i;
        }
        continue;
      }
      default:
        break;
    }
    if ((c == ',' || c == '}') && gbx_depth != 0 && open.size() == gbx_depth && cut != std::string::npos) {
      flush(i);
      out.resize(cut);
      cut = std::string::npos;
      run = i;
      const bool drop = c == ',' && drop_comma;
      drop_comma = false;
      if (drop) {
        expect_key = true;
        run = ++i;
        continue;
      }
    }
    ++i;
    if (c == '{' || c == '[') {
      open += c;
      expect_key = c == '{';
      if (c == '{' && gbx_next && open.size() == 2) gbx_depth = 2;
      gbx_next = false;
    } else if (c == '}' || c == ']') {
      if (open.size() == gbx_depth) gbx_depth = 0;
      if (!open.empty()) open.pop_back();
      expect_key = false;
    } else if (c == ',') {
      expect_key = !open.empty() && open.back() == '{';
    }
  }
  flush(n);
  return out;
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

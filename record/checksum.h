#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace gbx {

// Lower-case hex SHA-256 of bytes (OpenSSL's libcrypto).
std::string sha256_hex(const std::string& bytes);

// The text the checksum covers: the record without gbx.checksum, compact, keys sorted. Parsing a
// written record and serialising it again gives the same text, so the seal survives a round trip.
std::string canonical_text(const nlohmann::json& record);

// The key of the keyed seal: $GBX_SEAL_KEY's bytes, or none when it is unset or empty.
std::optional<std::string> seal_key_from_environment();

// Adds gbx.checksum = {algorithm: "sha256", value} over canonical_text(record): it catches
// corruption, but anyone can recompute it, so it is no signature. With a key, also adds
// gbx.checksum.keyed = {algorithm: "hmac-sha256", value}, an HMAC-SHA-256 of the same text that
// only a holder of the key can make.
void seal_record(nlohmann::json& record, const std::optional<std::string>& key = seal_key_from_environment());

// Lower-case hex HMAC-SHA-256 of bytes under key (OpenSSL's libcrypto).
std::string hmac_sha256_hex(const std::string& key, const std::string& bytes);

enum class SealStatus { intact, mismatch, missing };

struct SealCheck {
  SealStatus status = SealStatus::missing;
  std::string recorded;  // the value in the record, if any
  std::string computed;  // the value recomputed now
};

// Recomputes the checksum of a parsed record and compares it with the one it carries.
SealCheck check_seal(const nlohmann::json& record);

// The same verdict, for a record parsed from `text`: gbx writes a record as its canonical text
// indented, so the text less its whitespace and seal (compact_text_without_seal) is tried first,
// which saves serialising the record again; only if its digest differs is the record serialised.
SealCheck check_seal(const nlohmann::json& record, const std::string& text);

// JSON text less the whitespace between tokens and less the top-level object's gbx.checksum member
// (its comma too). For text that parses, it is canonical_text of the parsed record whenever the
// text's keys are sorted and its numbers and strings spelled as nlohmann spells them; otherwise it
// differs, and the digests differ with it.
std::string compact_text_without_seal(const std::string& text);

enum class KeyedSealStatus { valid, invalid, absent };

// Recomputes the keyed seal under key and compares it, in constant time, with the one the record
// carries; absent when it carries none (or one of another form).
KeyedSealStatus check_keyed_seal(const nlohmann::json& record, const std::string& key);

}  // namespace gbx

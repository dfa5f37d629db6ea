#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace gbx {

// Lower-case hex SHA-256 of bytes (OpenSSL's libcrypto).
std::string sha256_hex(const std::string& bytes);

// The text the checksum covers: the record without gbx.checksum, compact, keys sorted. Parsing a
// written record and serialising it again gives the same text, so the seal survives a round trip.
std::string canonical_text(const nlohmann::json& record);

// Adds gbx.checksum = {algorithm: "sha256", value} over canonical_text(record).
void seal_record(nlohmann::json& record);

enum class SealStatus { intact, mismatch, missing };

struct SealCheck {
  SealStatus status = SealStatus::missing;
  std::string recorded;  // the value in the record, if any
  std::string computed;  // the value recomputed now
};

// Recomputes the checksum of a parsed record and compares it with the one it carries.
SealCheck check_seal(const nlohmann::json& record);

}  // namespace gbx

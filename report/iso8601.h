#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gbx::tools {

// Seconds since the epoch of an ISO 8601 time ("2026-11-30T04:17:41Z", "...+01:00", fractional seconds
// ignored, no zone read as UTC); absent otherwise. Records date themselves this way (gbx.created_utc,
// Google Benchmark's context.date), and the trend orders runs by it.
std::optional<std::int64_t> parse_iso8601(const std::string& text);

}  // namespace gbx::tools

#pragma once

#include <iosfwd>
#include <string>

namespace gbx::tools {

// `gbx verify FILE`: 0 when the record's checksum matches, 1 on a mismatch, 2 when the file cannot
// be read as a sealed record.
int verify_record(const std::string& path, std::ostream& out, std::ostream& err);

}  // namespace gbx::tools

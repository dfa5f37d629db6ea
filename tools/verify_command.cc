#include "tools/verify_command.h"

#include <fstream>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "record/checksum.h"

namespace gbx::tools {

int verify_record(const std::string& path, std::ostream& out, std::ostream& err) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    err << "gbx verify: " << path << ": cannot open the file\n";
    return 2;
  }
  std::ostringstream text;
  text << file.rdbuf();
  nlohmann::json record;
  try {
    record = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    err << "gbx verify: " << path << ": not valid JSON (" << error.what() << ")\n";
    return 2;
  }
  const SealCheck check = check_seal(record);
  switch (check.status) {
    case SealStatus::missing:
      err << "gbx verify: " << path << ": no gbx.checksum (sha256) to verify: not a sealed gbx record\n";
      return 2;
    case SealStatus::mismatch:
      out << path << ": MISMATCH: the record was changed after it was written (recorded sha256 " << check.recorded
          << ", computed " << check.computed << ")\n";
      return 1;
    case SealStatus::intact:
      out << path << ": intact (sha256 " << check.computed << ")\n";
      return 0;
  }
  return 2;
}

}  // namespace gbx::tools

#include "tools/verify_command.h"

#include <ostream>

#include <nlohmann/json.hpp>

#include "record/checksum.h"
#include "record/json_parse.h"

namespace gbx::tools {

int verify_record(const std::string& path, std::ostream& out, std::ostream& err) {
  nlohmann::json record;
  try {
    record = parse_json_strictly(read_json_file(path));
  } catch (const JsonFault& fault) {
    err << "gbx verify: " << path << ": " << fault.what() << "\n";
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

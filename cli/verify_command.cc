#include "cli/verify_command.h"

#include <ostream>

#include <nlohmann/json.hpp>

#include "record/checksum.h"
#include "record/record_reader.h"

namespace gbx::tools {

int verify_record(const std::string& path, std::ostream& out, std::ostream& err) {
  nlohmann::json record;
  try {
    record = parse_record_file(path);
  } catch (const BadRecord& fault) {
    err << "gbx verify: " << fault.what() << "\n";
    return 2;
  }
  const SealCheck check = check_seal(record);
  if (check.status == SealStatus::missing) {
    err << "gbx verify: " << path << ": no gbx.checksum (sha256) to verify: not a sealed gbx record\n";
    return 2;
  }
  int code = 0;
  if (check.status == SealStatus::mismatch) {
    out << path << ": MISMATCH: the record was changed after it was written (recorded sha256 " << check.recorded
        << ", computed " << check.computed << ")\n";
    code = 1;
  } else {
    out << path << ": intact (sha256 " << check.computed << ")\n";
  }
  // With a key, the keyed seal must be there and valid: one who changes a record can recompute the
  // sha256 and drop the keyed seal, so an absent one proves nothing.
  if (const auto key = seal_key_from_environment()) {
    switch (check_keyed_seal(record, *key)) {
      case KeyedSealStatus::valid:
        out << path << ": keyed seal: valid (hmac-sha256 under $GBX_SEAL_KEY)\n";
        break;
      case KeyedSealStatus::invalid:
        out << path << ": keyed seal: invalid: not sealed under this $GBX_SEAL_KEY, or changed since\n";
        code = 1;
        break;
      case KeyedSealStatus::absent:
        out << path << ": keyed seal: absent: written without $GBX_SEAL_KEY, or the seal was removed\n";
        code = 1;
        break;
    }
  }
  return code;
}

}  // namespace gbx::tools

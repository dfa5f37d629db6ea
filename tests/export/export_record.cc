// Writes the sealed record of export_records.h, which the export tests and docs/dashboards.md's
// recipes export:
//   export_record OUT.json
#include <cstdio>
#include <fstream>

#include "tests/export/export_records.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: export_record OUT.json\n");
    return 2;
  }
  std::ofstream out(argv[1]);
  out << export_test::export_record().dump(2);
  if (!out) {
    std::fprintf(stderr, "export_record: %s: cannot write\n", argv[1]);
    return 2;
  }
  return 0;
}

// reseal_record FILE: seals a record edited by a test (gbx.checksum over its new content), in place,
// so that the test reaches the check it means to rather than the seal's.
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "record/checksum.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: reseal_record FILE\n";
    return 2;
  }
  std::stringstream text;
  text << std::ifstream(argv[1]).rdbuf();
  nlohmann::json record = nlohmann::json::parse(text.str());
  gbx::seal_record(record);
  std::ofstream(argv[1]) << record.dump(2) << "\n";
  return 0;
}

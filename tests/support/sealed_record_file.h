#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "record/checksum.h"
#include "tests/support/complete_record.h"

namespace gbx_test {

// Completes `record` with the keys the schema requires (complete_record.h), seals it and writes it
// to a file named after the running test and `name`: ctest runs each
// test in its own process, in parallel, so one file name per test keeps them from overwriting each other.
inline std::string write_sealed_record(const std::string& name, const nlohmann::json& partial) {
  nlohmann::json record = complete_record(partial);
  gbx::seal_record(record);
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string path = ::testing::TempDir() + test + "_" + name;
  std::ofstream(path) << record.dump(2);
  return path;
}

}  // namespace gbx_test
